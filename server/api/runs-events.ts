// A run's events as server-sent events (R-api-runs-events): what the run stored after the client's Last-Event-ID
// (all of it without one), then live events, each with its `id:` line; a comment every so often keeps proxies and
// clients from closing a stream while the run waits on a person; the stream ends once the run has ended. Edit when
// the stream's framing or its end changes.
import { and, desc, eq, max } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runEvents, runs } from "@/db/schema";
import { reportUnexpected } from "@/server/error-report";
import type { RunEvent, Runtime } from "@/server/runtime";

const KEEP_ALIVE_MS = 15_000;
const ENDED = new Set(["done", "failed", "cancelled"]);

/**
 * Where the run's stored events end, when it has ended: its newest id. Ended means the row says so and the newest
 * status event stored says so too, since the row is written just before that event (R-api-runs-events): a stream
 * that went by the row alone could close a moment before the run's last event.
 */
async function endOf(db: Db, runId: string): Promise<number | null> {
  const [row] = await db.select({ status: runs.status }).from(runs).where(eq(runs.id, runId));
  if (!row || !ENDED.has(row.status)) return null;
  const [status] = await db
    .select({ data: runEvents.data })
    .from(runEvents)
    .where(and(eq(runEvents.runId, runId), eq(runEvents.type, "status")))
    .orderBy(desc(runEvents.id))
    .limit(1);
  if (!status || !ENDED.has(String(status.data.status))) return null;
  const [top] = await db.select({ id: max(runEvents.id) }).from(runEvents).where(eq(runEvents.runId, runId));
  return top?.id ?? 0;
}

function frame(event: RunEvent): string {
  // JSON has no raw line breaks, so the event is one data line.
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

const storedId = (event: RunEvent) => (event.id.includes(".") ? null : Number(event.id));

export type StreamOptions = { keepAliveMs?: number };

/** The SSE body for the run; `signal` is the request's (a client that goes away ends it). */
export async function runEventStream(
  runtime: Runtime,
  db: Db,
  runId: string,
  lastEventId: string | null,
  signal: AbortSignal,
  options: StreamOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener("abort", onAbort);
  const events = await runtime.subscribe(runId, lastEventId, stop.signal);
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  const finish = () => {
    clearInterval(timer);
    signal.removeEventListener("abort", onAbort);
    stop.abort();
  };
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!stop.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      timer = setInterval(() => send(": keep-alive\n\n"), options.keepAliveMs ?? KEEP_ALIVE_MS);
      // How long a client waits before reconnecting, and the headers on their way at once.
      send("retry: 2000\n\n");
      try {
        const from = Number.parseInt(lastEventId ?? "0", 10) || 0;
        // A run that ended before the client came gets what it missed and the end, without waiting.
        const endsAt = await endOf(db, runId);
        if (endsAt !== null && endsAt <= from) return;
        for await (const event of events) {
          send(frame(event));
          const id = storedId(event);
          if (id === null) continue;
          const closing = (event.type === "status" && ENDED.has(String(event.data.status))) || (endsAt !== null && id >= endsAt);
          // Ended, and nothing stored since this event (a message sent meanwhile continues the run, and the stream).
          if (closing && ((await endOf(db, runId)) ?? Infinity) <= id) return;
        }
      } catch (error) {
        // Once the answer has begun, a failure can only be told in the stream: one sentence with its id (R-error-id).
        if (stop.signal.aborted) return;
        const { id, sentence } = reportUnexpected(error, `API events of run ${runId}`);
        send(`event: error\ndata: ${JSON.stringify({ error: { code: "INTERNAL", message: sentence, errorId: id } })}\n\n`);
      } finally {
        finish();
        try {
          controller.close();
        } catch {
          // Already closed or errored.
        }
      }
    },
    cancel() {
      finish();
    },
  });
}
