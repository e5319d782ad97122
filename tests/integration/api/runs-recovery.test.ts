// A call that may have run, settled through the runs API over real HTTP (R-journal-manual): a manual tool that times
// out in a run stops the run waiting (R-journal-timeout); POST /runs/{id}/recoveries marks it as done with its
// result, runs it again or fails it, and a second word on the same round is refused.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call as modelCall, text } from "@/tests/support/loopback-model";
import { apiStudio, bearer, call, readEvents, type ApiStudio, type RunStarted, type RunView, type SseEvent } from "./runs-studio";
import { SLOW_LEDGER as LEDGER } from "@/tests/support/slow-ledger";

let s: ApiStudio;
let key: string;
let agent: string;

beforeAll(async () => {
  s = await apiStudio("api-runs-recovery", { "ledger.py": LEDGER });
  agent = await s.agent("ledgered", [{ entry: "tools/ledger.py" }]);
  ({ value: key } = await s.key({ name: "recovering" }));
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

const api = (path: string) => `${s.url}/api/v1${path}`;

async function waitingRun(): Promise<{ runId: string; callId: string; asked: SseEvent }> {
  const started = await call<RunStarted>(api(`/agents/${agent}/runs`), { key, body: { message: "Post it." } });
  const runId = started.json!.runId;
  const read = await readEvents(api(`/runs/${runId}/events`), bearer(key), (e) => e.event === "recovery_requested");
  const asked = read.events.at(-1)!;
  expect(asked.event).toBe("recovery_requested");
  expect(asked.data!.data).toMatchObject({ operation: "ledger__post", why: "timeout", round: 1 });
  return { runId, callId: String(asked.data!.data.callId), asked };
}

describe("a call that may have run, through the API", () => {
  it("R-journal-manual: mark_done answers the model the given result; a second word is refused with NO_RECOVERY_WAITING", async () => {
    s.model.reply(modelCall("ledger__post", { seconds: 2 }), text("Posted, as you said."));
    const { runId, callId, asked } = await waitingRun();
    await expect.poll(async () => (await call<RunView>(api(`/runs/${runId}`), { key })).json!.status).toBe("waiting");
    const waiting = (await call<RunView>(api(`/runs/${runId}`), { key })).json!;
    expect(waiting.waiting.recoveries).toEqual([{ callId, operation: "ledger__post", title: expect.any(String), args: { seconds: 2 }, why: "timeout" }]);
    expect(waiting.calls[0]!.state).toBe("waiting_for_recovery");
    const empty = await call(api(`/runs/${runId}/recoveries`), { key, body: { callId, action: "mark_done" } });
    expect(empty.status).toBe(400);
    const done = await call(api(`/runs/${runId}/recoveries`), { key, body: { callId, action: "mark_done", result: "Entry 17 was posted." } });
    expect(done).toMatchObject({ status: 200, json: { runId, callId, action: "mark_done" } });
    const again = await call(api(`/runs/${runId}/recoveries`), { key, body: { callId, action: "fail" } });
    expect(again.status).toBe(409);
    expect(again.json!.error.code).toBe("NO_RECOVERY_WAITING");
    const end = await readEvents(api(`/runs/${runId}/events`), bearer(key, { "last-event-id": asked.id! }));
    expect(end.ended).toBe(true);
    const run = (await call<RunView>(api(`/runs/${runId}`), { key })).json!;
    expect(run.status).toBe("done");
    expect(run.calls[0]).toMatchObject({ result: { outcome: "ok", text: "Entry 17 was posted." } });
  });

  it("R-journal-timeout: run_again runs it once more, and one that times out again is asked about anew", async () => {
    s.model.reply(modelCall("ledger__post", { seconds: 2 }), text("Gave up."));
    const { runId, callId, asked } = await waitingRun();
    expect((await call(api(`/runs/${runId}/recoveries`), { key, body: { callId, action: "run_again" } })).status).toBe(200);
    const read = await readEvents(api(`/runs/${runId}/events`), bearer(key, { "last-event-id": asked.id! }), (e) => e.event === "recovery_requested");
    const second = read.events.at(-1)!;
    expect(second.data!.data).toMatchObject({ callId, why: "timeout", round: 2 });
    expect((await call(api(`/runs/${runId}/recoveries`), { key, body: { callId, action: "fail", result: "the ledger is down" } })).status).toBe(200);
    const end = await readEvents(api(`/runs/${runId}/events`), bearer(key, { "last-event-id": second.id! }));
    expect(end.ended).toBe(true);
    const run = (await call<RunView>(api(`/runs/${runId}`), { key })).json!;
    expect(run.calls[0]).toMatchObject({ result: { outcome: "failed", text: "The person marked this call as failed: the ledger is down" } });
  });
});
