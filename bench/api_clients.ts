// bench:api's other process: the loopback model and the programs calling the studio, so neither's work is charged to
// the studio, and the model's first token and the client's are timed on one clock. Told by bench/api.ts (over IPC)
// to send rounds of concurrent streaming chat completions with the official openai client; answers each request's
// times, its text, its run id and whether its stream ended with [DONE]. Run by bench/api.ts, not by hand.
import OpenAI from "openai";
import { startLoopbackModel, text, type RecordedRequest } from "../tests/support/loopback-model";

export type Round = { kind: "round"; base: string; key: string; model: string; n: number; tag: string; timeoutMs: number };

export type Result = {
  tag: string;
  runId: string | null;
  text: string;
  /** How many chunks carried text: one per piece the model wrote, unless some were missed and came with the whole message. */
  pieces: number;
  /** Whether the stream's last event was [DONE] (the client alone ends quietly either way). */
  done: boolean;
  error: string | null;
  sentAt: number;
  /** The model's side: when the studio's request reached it and when it wrote the first piece of text. */
  modelReceivedAt: number | null;
  modelFirstAt: number | null;
  /** The client's side: its first piece of text, and the end of its stream. */
  clientFirstAt: number | null;
  endedAt: number;
};

/** What every request is answered: 12 pieces of 8 characters, 20 ms apart, as a model streams them. */
export const REPLY = "Every file in the inbox is sorted: three invoices, two receipts, one letter and one photograph.";
const PACE_MS = 20;

const send = (message: unknown) => process.send!(message);

/** fetch for one request that tells whether the stream it carries ends with [DONE], and the run's id. */
function watching(result: Result): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    result.runId = response.headers.get("x-quiver-run-id");
    if (!response.body) return response;
    const decoder = new TextDecoder();
    let tail = "";
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        // Checked on every chunk: the client stops reading at [DONE], so the stream may never be flushed.
        transform(chunk, controller) {
          tail = (tail + decoder.decode(chunk, { stream: true })).slice(-64);
          result.done = /(^|\n)data: \[DONE\]\n\n$/.test(tail);
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

async function one(round: Round, tag: string, byTag: Map<string, RecordedRequest>): Promise<Result> {
  const result: Result = { tag, runId: null, text: "", pieces: 0, done: false, error: null, sentAt: performance.now(), modelReceivedAt: null, modelFirstAt: null, clientFirstAt: null, endedAt: 0 };
  const client = new OpenAI({ apiKey: round.key, baseURL: `${round.base}/api/v1`, maxRetries: 0, fetch: watching(result) });
  try {
    const stream = await client.chat.completions.create(
      { model: round.model, stream: true, messages: [{ role: "user", content: `Sort the inbox [${tag}].` }] },
      { signal: AbortSignal.timeout(round.timeoutMs) },
    );
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta?.content ?? "";
      if (piece && result.clientFirstAt === null) result.clientFirstAt = performance.now();
      if (piece) result.pieces++;
      result.text += piece;
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  result.endedAt = performance.now();
  const seen = byTag.get(tag);
  result.modelReceivedAt = seen?.receivedAt ?? null;
  result.modelFirstAt = seen?.firstTextAt ?? null;
  return result;
}

async function main() {
  const model = await startLoopbackModel();
  const byTag = new Map<string, RecordedRequest>();
  model.fallback = (request) => {
    const tag = /\[(r\d+-\d+)\]/.exec(JSON.stringify(request.body.messages))?.[1];
    if (tag) byTag.set(tag, request);
    return text(REPLY, { paceMs: PACE_MS });
  };
  process.on("message", (message: Round | { kind: "stop" }) => {
    if (message.kind === "stop") {
      void model.close().then(() => process.exit(0));
      return;
    }
    const tags = Array.from({ length: message.n }, (_, i) => `${message.tag}-${i}`);
    void Promise.all(tags.map((tag) => one(message, tag, byTag))).then((results) => {
      model.requests.length = 0;
      send({ kind: "results", results });
    });
  });
  // The bench that started this process went away: nothing is left to answer.
  process.on("disconnect", () => void model.close().then(() => process.exit(0)));
  send({ kind: "ready", url: model.url });
}

// Imported by bench/api.ts for its types and REPLY: only the process it starts (with an IPC channel) runs.
if (process.send) void main();
