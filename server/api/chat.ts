// POST /api/v1/chat/completions: an agent behind OpenAI's Chat Completions API. Each request is a run of the agent
// named by `model`, started from the conversation the client sent, recorded as via the key (R-api-chat-run), and
// answered streamed or whole as the run goes (chat-follow.ts, chat-answer.ts). The agent's tools run inside the
// studio, under its permissions, hook and masking; only its text reaches the client. Edit when the endpoint changes.
import { env } from "@/server/env";
import { recordKeyUse } from "@/server/keys/request";
import { studioRuntime } from "@/server/runtime";
import { agentForModel } from "./chat-agents";
import { streamAnswer, wholeAnswer, type AnswerMeta } from "./chat-answer";
import { follow, type Step } from "./chat-follow";
import { conversationOf } from "./chat-schema";
import { chatCompletionsSpec } from "./chat-specs";
import { keyRoute } from "./edge";

/** How often a waiting run's stream says so (an SSE comment), so proxies and clients keep the connection. */
export const BEAT_MS = 15_000;

/** The run's steps, its ending held back until the key's use is on record. */
async function* recorded(use: Promise<void>, steps: AsyncGenerator<Step>): AsyncGenerator<Step> {
  for await (const step of steps) {
    if (step.kind === "end") await use;
    yield step;
  }
}

export function chatCompletions(options: { beatMs?: number } = {}) {
  return keyRoute(chatCompletionsSpec, async ({ request, key, db, body }) => {
    const conversation = conversationOf(body);
    const agent = await agentForModel(db, key, body.model);
    const runtime = await studioRuntime();
    const { runId } = await runtime.start({
      agentId: agent.id,
      message: conversation.message,
      prior: conversation.prior,
      system: conversation.system,
      user: key.who,
      via: { kind: "api", keyId: key.id, keyName: key.name },
    });
    // Watched from here, before the run can publish anything: its deltas reach the answer without a read of the
    // table first, which under load waits behind every other request's statements. The key's audit row is written
    // meanwhile, and the answer ends only once it is (R-key-audit); a write that fails ends the answer with its id.
    const watching = new AbortController();
    const live = runtime.log.live(runId, watching.signal);
    const used = recordKeyUse(db, key, { action: "chat.completions", agentId: agent.id, runId });
    // Awaited at the answer's end; this only keeps a client that left early from leaving it unawaited.
    used.catch(() => undefined);

    // The client going away stops only this answer: the run goes on, and is in /runs.
    const gone = new AbortController();
    request.signal.addEventListener("abort", () => gone.abort(), { once: true });
    const steps = recorded(used, follow({
      runId,
      runUrl: `${env().baseUrl ?? new URL(request.url).origin}/runs/${runId}`,
      waitLimitMs: key.waitLimitMs,
      beatMs: options.beatMs ?? BEAT_MS,
      events: async (signal) => {
        signal.addEventListener("abort", () => watching.abort(), { once: true });
        return live;
      },
      signal: gone.signal,
    }));
    const meta: AnswerMeta = {
      id: `chatcmpl-${runId}`,
      created: Math.floor(Date.now() / 1000),
      model: agent.id,
      includeUsage: body.stream_options?.include_usage === true,
      headers: { "x-quiver-run-id": runId },
    };
    return body.stream ? streamAnswer(steps, meta, () => gone.abort()) : wholeAnswer(steps, meta);
  });
}
