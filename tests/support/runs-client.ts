// A person steering runs through the runs API over HTTP with one key, as the API tests do: start a run, read its
// stream to the next event of a kind, read its view, and post decisions and answers on what it waits for
// (R-api-runs-steer). Each returns the API's answer, so a test asserts the status it expects.
import type { ErrorBody } from "@/server/api/edge";
import { bearer, call, readEvents, type RunStarted, type RunView, type SseEvent } from "@/tests/integration/api/runs-studio";

export type Decision = "approve_once" | "approve_always_in_run" | "deny";

/** The API's answer to a word on a run: 200, or an error body saying why not. */
type Answered = ReturnType<typeof call<ErrorBody>>;

export type RunsClient = {
  /** The URL of a route under /api/v1. */
  api(route: string): string;
  /** Starts a run of the agent; fails unless the API answers 201. */
  start(agentId: string, message: string): Promise<string>;
  /** The next event of `type` after `after` (from the start without one), read from the run's stream. */
  next(runId: string, type: string, after?: string | null): Promise<SseEvent>;
  getRun(runId: string): Promise<RunView>;
  decide(runId: string, callId: string, decision: Decision): Answered;
  answer(runId: string, callId: string, answer: string): Answered;
};

export function runsClient(baseUrl: string, key: string): RunsClient {
  const api = (route: string) => `${baseUrl}/api/v1${route}`;
  return {
    api,
    async start(agentId, message) {
      const answer = await call<RunStarted>(api(`/agents/${agentId}/runs`), { key, body: { message } });
      if (answer.status !== 201) throw new Error(`starting a run answered ${answer.status}: ${JSON.stringify(answer.json)}`);
      return answer.json!.runId;
    },
    async next(runId, type, after = null) {
      const read = await readEvents(api(`/runs/${runId}/events`), bearer(key, after ? { "last-event-id": after } : {}), (e) => e.event === type);
      const found = read.events.at(-1);
      if (found?.event !== type) throw new Error(`run ${runId} sent no ${type} event: ${read.events.map((e) => e.event).join(", ")}`);
      return found;
    },
    getRun: async (runId) => (await call<RunView>(api(`/runs/${runId}`), { key })).json!,
    decide: (runId, callId, decision) => call(api(`/runs/${runId}/decisions`), { key, body: { callId, decision } }),
    answer: (runId, callId, answer) => call(api(`/runs/${runId}/answers`), { key, body: { callId, answer } }),
  };
}
