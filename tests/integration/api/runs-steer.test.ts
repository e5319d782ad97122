// Steering a run through the runs API over real HTTP, as a person does in the playground: an Ask me call approved
// once, denied, or approved for the rest of the run; ask_user answered; the conversation continued; the run stopped;
// and a tool's secret masked in what the API answers (R-api-runs-steer, R-api-runs-read).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call as modelCall, text } from "@/tests/support/loopback-model";
import { runsClient, type RunsClient } from "@/tests/support/runs-client";
import { apiStudio, bearer, call, readEvents, type ApiStudio, type RunView, type SseEvent } from "./runs-studio";

const NOTES = `"""Notes."""

import time


def write(subject: str) -> str:
    """Write one note.

    Args:
        subject: The note's name.
    """
    return f"wrote {subject}"


def slow(seconds: float) -> str:
    """Take a while.

    Args:
        seconds: How long.
    """
    time.sleep(seconds)
    return "slow done"
`;

const SERVICE = `"""A service whose tool says its token."""

from quiver import Secret


class Settings:
    """Credentials.

    Attributes:
        token: The service's token.
    """

    token: Secret


def whoami(settings: Settings) -> str:
    """Say who the service thinks we are."""
    return "token=" + settings.token
`;

const TOKEN = "svc_live_4b3a2f1e0d9c";
let s: ApiStudio;
let key: string;
let runs: RunsClient;
let keyId: string;
let agent: string;

beforeAll(async () => {
  s = await apiStudio("api-runs-steer", { "notes.py": NOTES, "service.py": SERVICE });
  const { createSecret } = await import("@/server/secrets/store");
  const { getDb } = await import("@/server/db");
  await createSecret(await getDb(), "admin", { name: "SERVICE_TOKEN", value: TOKEN });
  agent = await s.agent("steered", [
    { entry: "tools/notes.py", permissions: { notes__write: "ASK" } },
    { entry: "tools/service.py", settings: { token: "${SERVICE_TOKEN}" } },
    { entry: "system:ask_user" },
  ]);
  ({ value: key, id: keyId } = await s.key({ name: "steering" }));
  runs = runsClient(s.url, key);
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

const api = (path: string) => `${s.url}/api/v1${path}`;

const callIdOf = (event: SseEvent) => (event.data!.data as { callId: string }).callId;

describe("approvals through the API", () => {
  it("runs a call approved once and refuses one denied, telling the model; the run says who decided", async () => {
    s.model.reply(modelCall("notes__write", { subject: "first" }), modelCall("notes__write", { subject: "second" }), text("Done."));
    const runId = await runs.start(agent, "Write two notes.");
    const asked = await runs.next(runId, "approval_requested");
    const first = callIdOf(asked);
    // A run waiting shows what it waits on.
    await runs.next(runId, "status", asked.id);
    const waiting = await runs.getRun(runId);
    expect(waiting.status).toBe("waiting");
    expect(waiting.waiting.approvals).toEqual([expect.objectContaining({ callId: first, operation: "notes__write", args: { subject: "first" }, grantable: true })]);
    expect(waiting.calls.find((c) => c.callId === first)!.state).toBe("waiting_for_approval");

    const approved = await runs.decide(runId, first, "approve_once");
    expect(approved).toMatchObject({ status: 200, json: { runId, callId: first, decision: "approve_once" } });
    const again = await runs.decide(runId, first, "deny");
    expect(again.status).toBe(409);
    expect(again.json!.error.code).toBe("NO_APPROVAL_WAITING");

    const second = await runs.next(runId, "approval_requested", asked.id);
    expect(callIdOf(second)).not.toBe(first);
    expect((await runs.decide(runId, callIdOf(second), "deny")).status).toBe(200);
    await runs.next(runId, "message", second.id);
    const end = await readEvents(api(`/runs/${runId}/events`), bearer(key, { "last-event-id": second.id! }));
    expect(end.ended).toBe(true);

    const run = await runs.getRun(runId);
    expect(run.status).toBe("done");
    expect(run.waiting).toEqual({ approvals: [], questions: [], recoveries: [] });
    const [one, two] = run.calls;
    expect(one).toMatchObject({ state: "finished", decision: { decision: "approve_once", by: { name: "API key steering" } }, result: { outcome: "ok", text: "wrote first" } });
    expect(two).toMatchObject({ state: "finished", decision: { decision: "deny" }, result: { outcome: "refused" } });
    // The model was told the second call was refused.
    expect(JSON.stringify(s.model.requests.at(-1)!.body.messages)).toMatch(/denied|refused/i);
  });

  it("approve_always_in_run lets every later call of the operation in the run go without asking", async () => {
    s.model.reply(modelCall("notes__write", { subject: "a" }), modelCall("notes__write", { subject: "b" }), text("Both."));
    const runId = await runs.start(agent, "Write a and b.");
    const asked = await runs.next(runId, "approval_requested");
    expect((await runs.decide(runId, callIdOf(asked), "approve_always_in_run")).status).toBe(200);
    const rest = await readEvents(api(`/runs/${runId}/events`), bearer(key, { "last-event-id": asked.id! }));
    expect(rest.ended).toBe(true);
    expect(rest.events.filter((e) => e.event === "approval_requested")).toEqual([]);
    expect((await runs.getRun(runId)).calls.map((c) => [c.result?.text, c.decision?.decision ?? null])).toEqual([
      ["wrote a", "approve_always_in_run"],
      ["wrote b", null],
    ]);
  });
});

describe("questions, conversation and stopping", () => {
  it("answers ask_user, continues the finished run with another message, and refuses a message while it waits", async () => {
    s.model.reply(modelCall("ask_user", { question: "Which one?" }), text("The green one it is."), text("Noted again."));
    const runId = await runs.start(agent, "Pick one.");
    const asked = await runs.next(runId, "question_asked");
    await runs.next(runId, "status", asked.id);
    expect((await runs.getRun(runId)).waiting.questions).toEqual([{ callId: callIdOf(asked), kind: "call", parent: null, question: "Which one?", choices: [] }]);
    const busy = await call(api(`/runs/${runId}/messages`), { key, body: { message: "Hello?" } });
    expect(busy.status).toBe(409);
    expect(busy.json!.error).toMatchObject({ code: "RUN_BUSY", message: expect.stringContaining("waiting for an approval or an answer") });

    expect((await runs.answer(runId, callIdOf(asked), "the green one")).status).toBe(200);
    const done = await readEvents(api(`/runs/${runId}/events`), bearer(key, { "last-event-id": asked.id! }));
    expect(done.ended).toBe(true);
    const answered = await runs.getRun(runId);
    expect(answered.calls[0]!.result!.text).toBe("The user answered: the green one");

    const more = await call(api(`/runs/${runId}/messages`), { key, body: { message: "Once more." } });
    expect(more).toMatchObject({ status: 202, json: { runId, status: "running" } });
    const rest = await readEvents(api(`/runs/${runId}/events`), bearer(key, { "last-event-id": answered.lastEventId! }));
    expect(rest.ended).toBe(true);
    const continued = await runs.getRun(runId);
    expect(continued.status).toBe("done");
    expect(continued.messages.filter((m) => m.role === "user").map((m) => [m.text, m.by?.name])).toEqual([
      ["Pick one.", "API key steering"],
      ["Once more.", "API key steering"],
    ]);
    expect(continued.messages.at(-1)!.text).toBe("Noted again.");
  });

  it("stops a run whose tool is still working, the stream ending cancelled; a second stop is refused", async () => {
    s.model.reply(modelCall("notes__slow", { seconds: 20 }), text("never"));
    const runId = await runs.start(agent, "Take your time.");
    const started = await runs.next(runId, "tool_started");
    const stopped = await call(api(`/runs/${runId}/cancel`), { key, method: "POST" });
    expect(stopped.status).toBe(202);
    const end = await readEvents(api(`/runs/${runId}/events`), bearer(key, { "last-event-id": started.id! }), () => false, 15_000);
    expect(end.ended).toBe(true);
    expect(end.events.at(-1)!.data).toMatchObject({ type: "status", data: { status: "cancelled" } });
    const again = await call(api(`/runs/${runId}/cancel`), { key, method: "POST" });
    expect(again.status).toBe(409);
    expect(again.json!.error.code).toBe("RUN_ENDED");
  });

  it("leaves one audit row per use naming the key, the agent and the run (R-api-runs-audit)", async () => {
    const { getDb } = await import("@/server/db");
    const { audit } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    const rows = await (await getDb()).select({ action: audit.action, actor: audit.actor, detail: audit.detail }).from(audit).where(eq(audit.actor, `key:${keyId}`));
    const actions = new Set(rows.map((r) => r.action));
    for (const action of ["run.start", "run.read", "run.follow", "run.continue", "run.decide.approve_once", "run.decide.deny", "run.decide.approve_always_in_run", "run.answer", "run.cancel"]) {
      expect(actions, action).toContain(action);
    }
    expect(rows.every((r) => r.detail.key === "steering" && r.detail.agentId === agent && typeof r.detail.runId === "string")).toBe(true);
  });

  it("answers a tool's secret masked, in the run it reads and in the events it streams", async () => {
    s.model.reply(modelCall("service__whoami"), text("Checked."));
    const runId = await runs.start(agent, "Who are we?");
    const read = await readEvents(api(`/runs/${runId}/events`), bearer(key));
    expect(read.ended).toBe(true);
    const run = await call<RunView>(api(`/runs/${runId}`), { key });
    expect(run.json!.calls[0]!.result!.text).toBe("token=***");
    expect(run.text).not.toContain(TOKEN);
    expect(JSON.stringify(read.events)).not.toContain(TOKEN);
  });
});
