// The program's line back to the studio (R-code-import): JSON lines on its fd 3, one request at a time, each
// answered with the text the model would have read and how it ended. The program's clock stops while a call runs
// (R-code-clock): an approval the person takes ten minutes over does not time the program out.
import type { Duplex } from "node:stream";
import { z } from "zod";
import type { CodeSources, SourceAnswer } from "./modules";

/** The longest request line read; a program that sends more is cut off (its arguments are the model's, not a file). */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

const requestSchema = z.object({
  id: z.number().int(),
  source: z.string().min(1).max(200),
  function: z.string().min(1).max(200).optional(),
  operation: z.string().min(1).max(200).optional(),
  arguments: z.record(z.string(), z.unknown()),
});

/** A wall clock that can stop: `expired` fires once `ms` have run, not counting the time between pause and resume. */
export class PausableClock {
  private left: number;
  private since = 0;
  private timer: NodeJS.Timeout | null = null;
  private paused = 0;

  constructor(ms: number, private readonly expired: () => void) {
    this.left = ms;
    this.start();
  }

  private start() {
    this.since = Date.now();
    this.timer = setTimeout(this.expired, Math.max(0, this.left));
  }

  pause() {
    if (this.paused++ > 0 || !this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.left -= Date.now() - this.since;
  }

  resume() {
    if (--this.paused > 0) return;
    this.start();
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.paused = Number.POSITIVE_INFINITY;
  }
}

/** Answers each request line on `stream` in turn, until it closes. */
export function serveChannel(stream: Duplex, sources: CodeSources, clock: PausableClock): void {
  let pending = Buffer.alloc(0);
  let queue = Promise.resolve();
  const answer = (reply: Record<string, unknown>) => {
    if (!stream.destroyed) stream.write(`${JSON.stringify(reply)}\n`);
  };
  const handle = async (line: string) => {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return answer({ id: null, error: "the request was not one line of JSON" });
    }
    const parsed = requestSchema.safeParse(raw);
    if (!parsed.success || (!parsed.data.function && !parsed.data.operation)) {
      const id = typeof (raw as { id?: unknown })?.id === "number" ? (raw as { id: number }).id : null;
      return answer({ id, error: "a request names a source, a function (or an operation) and its arguments as an object" });
    }
    const { id, ...request } = parsed.data;
    clock.pause();
    let reply: SourceAnswer;
    try {
      reply = await sources.call(request);
    } catch (error) {
      reply = { outcome: "failed", text: `The studio could not make this call: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      clock.resume();
    }
    answer({ id, outcome: reply.outcome, text: reply.text });
  };
  stream.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (let end = pending.indexOf(10); end >= 0; end = pending.indexOf(10)) {
      const line = pending.subarray(0, end).toString("utf8");
      pending = pending.subarray(end + 1);
      queue = queue.then(() => handle(line));
    }
    if (pending.length > MAX_REQUEST_BYTES) {
      pending = Buffer.alloc(0);
      stream.destroy();
    }
  });
}
