// A chat completion's answer in OpenAI's shapes, from the steps of a followed run (chat-follow.ts): streamed as
// chat.completion.chunk events, each text delta as the model wrote it, SSE comments while the run waits on a
// person, then the finish, the usage when asked for, and [DONE]; or the whole chat.completion at the end. A run
// that fails ends in OpenAI's error shape with the run's own sentence (R-api-chat-stream). Edit when a shape changes.
import { reportUnexpected } from "@/server/error-report";
import type { Ending, Step, Usage } from "./chat-follow";

export type AnswerMeta = {
  /** chatcmpl-<run id>: the answer's id names the run it came from. */
  id: string;
  created: number;
  model: string;
  includeUsage: boolean;
  headers: Record<string, string>;
};

export function usageOf(usage: Usage) {
  return { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output };
}

/** OpenAI's error shape, with the run's sentence (never a stack: a studio error is already an id there). */
export function runError(ending: Extract<Ending, { reason: "failed" | "cancelled" }>) {
  return { error: { message: ending.message, type: "server_error", code: ending.reason === "failed" ? "run_failed" : "run_cancelled", param: null } };
}

const encoder = new TextEncoder();
const event = (data: unknown) => encoder.encode(`data: ${JSON.stringify(data)}\n\n`);

/** The answer as server-sent events; `cancel` is told when the client goes away (the run goes on regardless). */
export function streamAnswer(steps: AsyncGenerator<Step>, meta: AnswerMeta, cancel: () => void): Response {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(meta.includeUsage ? { usage: null } : {}),
  });
  let gone = false;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (bytes: Uint8Array) => {
        if (!gone) controller.enqueue(bytes);
      };
      const finish = (ending: Ending, text = "") => {
        if (ending.reason === "failed" || ending.reason === "cancelled") {
          send(event(runError(ending)));
          return;
        }
        if (text) send(event(chunk({ content: text })));
        send(event(chunk({}, "stop")));
        if (meta.includeUsage) send(event({ id: meta.id, object: "chat.completion.chunk", created: meta.created, model: meta.model, choices: [], usage: usageOf(ending.usage) }));
        send(encoder.encode("data: [DONE]\n\n"));
      };
      send(event(chunk({ role: "assistant", content: "" })));
      let said = false;
      try {
        for await (const step of steps) {
          if (step.kind === "text") {
            said ||= step.text.trim() !== "";
            send(event(chunk({ content: step.text })));
          } else if (step.kind === "waiting") {
            send(encoder.encode(step.wait.kind === "question" ? ": waiting for an answer\n\n" : step.wait.kind === "recovery" ? ": waiting to hear whether a call ran\n\n" : ": waiting for approval\n\n"));
          } else {
            const ending = step.ending;
            finish(ending, ending.reason === "wait-limit" ? `${said ? "\n\n" : ""}${ending.message}` : "");
          }
        }
      } catch (error) {
        // The answer is already under way, so the studio's own failure is told in the stream, by its id (R-error-id).
        const { sentence } = reportUnexpected(error, `the chat completion ${meta.id}`);
        send(event({ error: { message: sentence, type: "server_error", code: "internal", param: null } }));
      } finally {
        if (!gone) controller.close();
      }
    },
    cancel() {
      gone = true;
      cancel();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      // A proxy that buffers (nginx) would hold the deltas back until the end.
      "x-accel-buffering": "no",
      ...meta.headers,
    },
  });
}

/** The whole chat.completion once the run is done, or has waited past the key's limit; a failed run is a 500. */
export async function wholeAnswer(steps: AsyncGenerator<Step>, meta: AnswerMeta): Promise<Response> {
  let content = "";
  for await (const step of steps) {
    if (step.kind === "text") content += step.text;
    if (step.kind !== "end") continue;
    const ending = step.ending;
    if (ending.reason === "failed" || ending.reason === "cancelled") {
      return Response.json(runError(ending), { status: 500, headers: { "cache-control": "no-store", ...meta.headers } });
    }
    if (ending.reason === "wait-limit") content += `${content.trim() ? "\n\n" : ""}${ending.message}`;
    return Response.json(
      {
        id: meta.id,
        object: "chat.completion",
        created: meta.created,
        model: meta.model,
        choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" }],
        usage: usageOf(ending.usage),
      },
      { status: 200, headers: { "cache-control": "no-store", ...meta.headers } },
    );
  }
  // The client went away (the request was aborted) before the run ended; the run goes on, and nobody reads this.
  return new Response(null, { status: 499, headers: meta.headers });
}
