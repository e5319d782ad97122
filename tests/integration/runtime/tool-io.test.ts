// ctx.io through a real run (docs/rules.md, "Asking the person from a tool"): a tree tool asks for a write, a shell
// command, a plan and an answer; each waits as a decision of the run with its kind, decided through the runs API over
// HTTP or the playground's tRPC procedures; a write allowed "always" holds for its path for the rest of the run, even
// once the run is rebuilt from its events; waiting is off the tool's clock; nobody answering is a no.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call as modelCall, text, toolMessages } from "@/tests/support/loopback-model";
import { runsClient, type RunsClient } from "@/tests/support/runs-client";
import { apiStudio, call, type ApiStudio, type RunView } from "../api/runs-studio";
import { sleep } from "./setup";

const DESK = `"""Tools that ask the person first."""

from pathlib import Path

from quiver import Context

TIMEOUT = 1


def publish(path: str, ctx: Context) -> str:
    """Write a report once the person allows it.

    Args:
        path: Where to write it.
    """
    decision = ctx.io.request_write_approval(path, "the weekly report")
    Path(__file__).with_name("heard.txt").write_text(decision)
    return f"write {path}: {decision}"


async def deploy(command: str, ctx: Context) -> str:
    """Deploy once the person allows the command and the plan.

    Args:
        command: The command to run.
    """
    allowed = await ctx.io.request_shell_approval(command, "to ship the release")
    approved, note = await ctx.io.request_plan_approval("1. build\\n2. ship")
    return f"shell: {allowed}, plan: {approved} {note!r}"


def choose(ctx: Context) -> str:
    """Ask the person for a colour."""
    return f"picked {ctx.io.ask('Which colour?', ['red', 'blue'])}"
`;

const builder = { id: "user-bea", email: "bea@quiver.test", name: "Bea", role: "builder" as const };
let s: ApiStudio;
let key: string;
let runs: RunsClient;
let agent: string;

beforeAll(async () => {
  s = await apiStudio("tool-io", { "desk.py": DESK });
  agent = await s.agent("asker", [{ entry: "tools/desk.py" }]);
  ({ value: key } = await s.key({ name: "deciding" }));
  runs = runsClient(s.url, key);
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

const api = (route: string) => `${s.url}/api/v1${route}`;

async function trpc() {
  const { appRouter } = await import("@/server/trpc/router");
  const { createCallerFactory } = await import("@/server/trpc/init");
  return createCallerFactory(appRouter)({ headers: new Headers(), user: builder });
}

/** The run's view once it waits on something, or has ended. */
async function waiting(runId: string): Promise<RunView> {
  await expect.poll(async () => (await runs.getRun(runId)).status, { timeout: 10_000 }).not.toBe("running");
  return runs.getRun(runId);
}

async function finished(runId: string): Promise<RunView> {
  await expect.poll(async () => (await runs.getRun(runId)).status, { timeout: 15_000 }).toBe("done");
  return runs.getRun(runId);
}

const resultsOf = (run: RunView) => run.calls.filter((c) => c.parent === null).map((c) => c.result?.text);

describe("a write approval through the runs API", () => {
  it("R-tool-io-write-always: “always” holds for that path for the rest of the run, after a rebuild too; another path asks again", async () => {
    s.model.reply(
      modelCall("desk__publish", { path: "out/a.md" }),
      modelCall("desk__publish", { path: "out/./a.md" }),
      modelCall("desk__publish", { path: "out/b.md" }),
      text("Written."),
    );
    const runId = await runs.start(agent, "Publish the reports.");
    const asked = await runs.next(runId, "approval_requested");
    const view = await waiting(runId);
    const [outer] = view.calls;
    expect(view.waiting.approvals).toEqual([
      {
        callId: `${outer!.callId}/io-1`,
        kind: "write",
        parent: outer!.callId,
        operation: "desk__publish",
        title: "Write a file",
        args: { path: "out/a.md", summary: "the weekly report" },
        reason: "Publish asks to write out/a.md: the weekly report",
        grantable: true,
      },
    ]);
    expect(outer!.state).toBe("running");
    await sleep(1_500); // past desk.py's TIMEOUT of 1 s: the person's time is off the tool's clock (R-tool-io-clock)
    const decided = await runs.decide(runId, `${outer!.callId}/io-1`, "approve_always_in_run");
    expect(decided.status).toBe(200);

    const other = await runs.next(runId, "approval_requested", asked.id);
    expect((other.data!.data as { args: unknown }).args).toEqual({ path: "out/b.md", summary: "the weekly report" });
    const callId = (other.data!.data as { callId: string }).callId;
    expect((await runs.decide(runId, callId, "deny")).status).toBe(200);
    const run = await finished(runId);
    expect(resultsOf(run)).toEqual(["write out/a.md: always", "write out/./a.md: always", "write out/b.md: deny"]);
    // The model read each tool's answer and nothing of the decisions' own.
    expect(toolMessages(s.model.requests.at(-1)!).map((m) => m.content)).toEqual(resultsOf(run));

    // The conversation goes on in a run rebuilt from its events: the path is still allowed.
    s.model.reply(modelCall("desk__publish", { path: "out/a.md" }), text("Again."));
    expect((await call(api(`/runs/${runId}/messages`), { key, body: { message: "Once more." } })).status).toBe(202);
    const again = await finished(runId);
    expect(resultsOf(again).at(-1)).toBe("write out/a.md: always");
    const { events } = await (await trpc()).runs.get({ runId });
    expect(events.filter((e) => e.type === "approval_requested")).toHaveLength(2);
  });
});

describe("shell, plan and ask through tRPC", () => {
  it("R-tool-io-cards: an async tool's shell and plan approvals are decided in turn, the plan's note reaching the tool", async () => {
    s.model.reply(modelCall("desk__deploy", { command: "make ship" }), text("Deployed."));
    const caller = await trpc();
    const { runId } = await caller.runs.start({ agentId: agent, message: "Ship it." });
    const shell = await runs.next(runId, "approval_requested");
    const first = (await waiting(runId)).waiting.approvals[0]!;
    expect(first).toMatchObject({ kind: "shell", grantable: false, args: { command: "make ship", reason: "to ship the release" } });
    await caller.runs.decide({ runId, callId: first.callId, decision: "once" });
    await runs.next(runId, "approval_requested", shell.id);
    const plan = (await waiting(runId)).waiting.approvals[0]!;
    expect(plan).toMatchObject({ kind: "plan", args: { plan: "1. build\n2. ship" }, callId: first.callId.replace(/io-1$/, "io-2") });
    await caller.runs.decide({ runId, callId: plan.callId, decision: "deny", note: "not on a Friday" });
    const run = await finished(runId);
    expect(resultsOf(run)).toEqual(["shell: True, plan: False 'not on a Friday'"]);
    // The runs API keeps what the tool asked on its call, as the playground's card shows it.
    expect(run.calls[0]!.requests.map((r) => [r.kind, r.decision?.decision, r.decision?.note])).toEqual([
      ["shell", "approve_once", null],
      ["plan", "deny", "not on a Friday"],
    ]);
    const { events } = await caller.runs.get({ runId });
    const decisions = events.filter((e) => e.type === "approval_decided").map((e) => e.data);
    expect(decisions).toEqual([
      expect.objectContaining({ decision: "once", by: { id: builder.id, name: builder.name } }),
      expect.objectContaining({ decision: "deny", note: "not on a Friday" }),
    ]);
  });

  it("R-tool-io-cards: ctx.io.ask waits as a question of its own kind, its options offered, and takes the answer", async () => {
    s.model.reply(modelCall("desk__choose", {}), text("Blue it is."));
    const caller = await trpc();
    const { runId } = await caller.runs.start({ agentId: agent, message: "Pick a colour." });
    await runs.next(runId, "question_asked");
    const question = (await waiting(runId)).waiting.questions[0]!;
    expect(question).toMatchObject({ kind: "ask", question: "Which colour?", choices: ["red", "blue"] });
    expect(question.parent).toBe(question.callId.replace(/\/io-1$/, ""));
    // The runs API takes the answer as it does ask_user's.
    expect((await runs.answer(runId, question.callId, "blue")).status).toBe(200);
    expect(resultsOf(await finished(runId))).toEqual(["picked blue"]);
  });
});

describe("nobody answering", () => {
  it("R-tool-io-nobody: a run stopped while a write waits tells the tool “deny”, and the wait is listed no more", async () => {
    const heard = path.join(process.env.QUIVER_TOOLS_DIR!, "heard.txt");
    fs.rmSync(heard, { force: true });
    s.model.reply(modelCall("desk__publish", { path: "secret/plans.md" }), text("Stopped."));
    const runId = await runs.start(agent, "Publish the plans.");
    await runs.next(runId, "approval_requested");
    expect((await waiting(runId)).waiting.approvals).toHaveLength(1);
    expect([200, 202]).toContain((await call(api(`/runs/${runId}/cancel`), { key, method: "POST" })).status);
    await expect.poll(() => (fs.existsSync(heard) ? fs.readFileSync(heard, "utf8") : null), { timeout: 10_000 }).toBe("deny");
    await expect.poll(async () => (await runs.getRun(runId)).status, { timeout: 10_000 }).toBe("cancelled");
    expect((await runs.getRun(runId)).waiting).toEqual({ approvals: [], questions: [], recoveries: [] });
  });
});
