// Calls that reach back and calls that are gated (R-loop-ctx-system, R-loop-ctx-ask, R-perm-hook), through the real loop, tool host and loopback model:
// hooks/tools.py sees every call by name with its arguments and may allow, refuse or ask; a tree tool calls a
// built-in through ctx.system under the agent's permissions, and asks the person through ctx.ask; waiting on the
// person never counts against the tool's own timeout (R-call-wait-not-counted).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "@/db/client";
import { audit } from "@/db/schema";
import { closeAll, hostFor } from "@/server/host";
import { Runtime } from "@/server/runtime";
import { MARKED_FAILED } from "@/server/runtime/journal-recovery";
import { call, calls, text, toolMessages } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, sleep, studio, waitForEvent, type Studio } from "./setup";

const DESK = `"""Tools that reach back to the studio."""

from quiver import CallFailed, Context, Refused, tool

TIMEOUT = 1


@tool(risk="write")
def note(text: str) -> str:
    """Keep a note.

    Args:
        text: The note.
    """
    return f"noted {text}"


@tool(risk="write")
def remember(key: str, value: str, ctx: Context) -> str:
    """Remember a fact through the studio's memory, then read it back.

    Args:
        key: The fact's key.
        value: Its value.
    """
    try:
        said = ctx.system.memory.memory_set(key=key, value=value)
    except Refused as exc:
        return f"refused: {exc}"
    except CallFailed as exc:
        return f"failed: {exc}"
    return f"{said} / {ctx.system.memory.memory_get(key=key)}"


@tool(risk="read")
def forget(key: str, ctx: Context) -> str:
    """Try an operation the agent may not have.

    Args:
        key: The fact's key.
    """
    try:
        return ctx.system.memory.memory_delete(key=key)
    except Refused as exc:
        return f"refused: {exc}"


@tool(risk="read")
def confirm(question: str, ctx: Context) -> str:
    """Ask the person.

    Args:
        question: What to ask.
    """
    return f"the person said {ctx.ask(question, ['yes', 'no'])}"
`;

let s: Studio;
let hookFile: string;

const writeHook = (source: string) => {
  fs.mkdirSync(path.dirname(hookFile), { recursive: true });
  fs.writeFileSync(hookFile, source);
  // A rewrite within the same clock tick still reads as a change.
  const later = new Date(Date.now() + 2_000 * Math.random() + 1_000);
  fs.utimesSync(hookFile, later, later);
};
const removeHook = () => fs.rmSync(hookFile, { force: true });

beforeAll(async () => {
  s = await studio("reach", { "desk.py": DESK });
  hookFile = path.join(path.dirname(s.tree), "hooks", "tools.py");
});
beforeEach(() => {
  s.model.reset();
  removeHook();
});
afterAll(async () => s?.close());

describe("the call hook (hooks/tools.py)", () => {
  const GATE = `from quiver import Ask, Refused


def check(call):
    if call.name == "desk__note" and "password" in call.arguments.get("text", ""):
        raise Refused("Notes may not hold passwords.")
    if call.name == "desk__note" and call.arguments.get("text", "").startswith("big"):
        return Ask("a big note")
    if call.name == "memory_set" and call.source == "system:memory":
        return "ask"
    return None
`;

  it("call hook sees each call by name with its arguments and refuses with a sentence the model reads, without running it", async () => {
    writeHook(GATE);
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__note" }] });
    s.model.reply(calls({ name: "desk__note", arguments: { text: "my password is hunter2" } }, { name: "desk__note", arguments: { text: "lunch at one" } }), text("done"));
    const events = await s.events(await s.run(agent));
    expect(dataOf(events, "tool_result").map((r) => [r.outcome, r.text])).toEqual([
      ["refused", "desk__note was refused by the call hook (hooks/tools.py) and did not run: Notes may not hold passwords."],
      ["ok", "noted lunch at one"],
    ]);
    expect(dataOf(events, "tool_started")).toHaveLength(1);
    expect(toolMessages(s.model.requests.at(-1)!)[0]!.content).toContain("Notes may not hold passwords.");
  });

  it("call hook asks for approval of this call only: the card offers no “always”, and the next call asks again", async () => {
    writeHook(GATE);
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__note" }] });
    s.model.reply(call("desk__note", { text: "big one" }), call("desk__note", { text: "big two" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const first = await waitForEvent(s.runtime, runId, "approval_requested");
    expect(first).toMatchObject({ operation: "desk__note", grantable: false, reason: "The call hook (hooks/tools.py) asks for approval: a big note" });
    await s.runtime.decide(runId, first.callId, "always", ANN);
    const second = await waitForEvent(s.runtime, runId, "approval_requested", (a) => a.callId !== first.callId);
    await s.runtime.decide(runId, second.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(runId), "tool_result").map((r) => r.text)).toEqual(["noted big one", "noted big two"]);
  });

  it("call hook's allow runs a call the agent's default would ask about, but not one the builder set to Ask me, and never lifts a DENY", async () => {
    writeHook(`def check(call):\n    return "allow"\n`);
    const byDefault = await s.agent({ tools: [{ entry: "tools/desk.py#desk__note" }], policy: { permission: "ASK" } });
    s.model.reply(call("desk__note", { text: "a" }), text("done"));
    const quiet = await s.events(await s.run(byDefault));
    expect(dataOf(quiet, "approval_requested")).toEqual([]);
    expect(dataOf(quiet, "tool_result")[0]!.text).toBe("noted a");

    const explicit = await s.agent({ tools: [{ entry: "tools/desk.py#desk__note", permissions: { desk__note: "ASK" } }] });
    s.model.reply(call("desk__note", { text: "b" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: explicit, message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    expect(asked.grantable).toBe(true);
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");

    const denied = await s.agent({ tools: [{ entry: "tools/desk.py#desk__note", permissions: { desk__note: "DENY" } }] });
    s.model.reply(call("desk__note", { text: "c" }), text("done"));
    const refused = dataOf(await s.events(await s.run(denied)), "tool_result")[0]!;
    expect(refused).toMatchObject({ outcome: "refused", text: "desk__note was refused and did not run: Refused by this operation's setting." });
  });

  it("call hook that cannot decide refuses the call and says a developer must fix it", async () => {
    writeHook(`def check(call)\n    return None\n`);
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__note" }] });
    s.model.reply(call("desk__note", { text: "a" }), text("done"));
    const result = dataOf(await s.events(await s.run(agent)), "tool_result")[0]!;
    expect(result.outcome).toBe("refused");
    expect(result.text).toMatch(/^desk__note did not run: the call hook \(hooks\/tools\.py\) could not decide on it \(hooks\/tools\.py could not be loaded: SyntaxError/);
    expect(result.text).toContain("a developer must fix the hook");
  });

  it("call hook's text crosses to the tool host once for many calls, and once more after it changes or the host restarts", async () => {
    const requests = vi.spyOn(Client.prototype, "request");
    const hookParams = () =>
      requests.mock.calls.map(([r]) => r as { method: string; params: Record<string, unknown> }).filter((r) => r.method === "quiver/hook").map((r) => r.params);
    const texts = () => hookParams().flatMap((p) => (typeof p.source === "string" ? [p.source] : []));
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__note" }] });
    // Every run asks for two notes, then says it is done: several runs at once make their hooks' calls at once.
    s.model.fallback = (request) =>
      request.body.messages.at(-1)?.role === "tool" ? text("done") : calls({ name: "desk__note", arguments: { text: "a" } }, { name: "desk__note", arguments: { text: "b" } });
    const notes = async (runs: number) => {
      const ids = await Promise.all(Array.from({ length: runs }, () => s.run(agent)));
      for (const id of ids) expect(dataOf(await s.events(id), "tool_result").map((r) => r.text)).toEqual(["noted a", "noted b"]);
    };
    try {
      const first = `def check(call):\n    return None  # first\n`;
      writeHook(first);
      await notes(4);
      expect(texts()).toEqual([first]);
      const sha = createHash("sha256").update(first).digest("hex");
      expect(hookParams().length).toBeGreaterThanOrEqual(8);
      expect(hookParams().every((p) => p.hash === sha)).toBe(true);

      const second = `def check(call):\n    return None  # second\n`;
      writeHook(second);
      await notes(2);
      expect(texts()).toEqual([first, second]);

      await hostFor(s.tree).restart();
      await notes(2);
      expect(texts()).toEqual([first, second, second]);
    } finally {
      requests.mockRestore();
    }
  });

  it("call hook governs built-in operations too, and an edited hook decides the very next call", async () => {
    writeHook(`from quiver import Refused\n\ndef check(call):\n    if call.name == "memory_set":\n        raise Refused("No remembering today.")\n`);
    const agent = await s.agent({ tools: [{ entry: "system:memory#memory_set" }] });
    s.model.reply(call("memory_set", { key: "k", value: "v" }), text("done"));
    expect(dataOf(await s.events(await s.run(agent)), "tool_result")[0]).toMatchObject({ outcome: "refused", text: expect.stringContaining("No remembering today.") });
    writeHook(`def check(call):\n    return None\n`);
    s.model.reply(call("memory_set", { key: "k", value: "v" }), text("done"));
    expect(dataOf(await s.events(await s.run(agent)), "tool_result")[0]).toMatchObject({ outcome: "ok" });
  });
});

describe("ctx.system and ctx.ask from a tree tool", () => {
  it("ctx.system calls a built-in through the studio under the agent's permissions: its own card, approval, audit row", async () => {
    const agent = await s.agent({
      tools: [{ entry: "tools/desk.py#desk__remember" }, { entry: "system:memory#memory_set,memory_get", permissions: { memory_set: "ASK" } }],
    });
    s.model.reply(call("desk__remember", { key: "tz", value: "UTC" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    expect(asked).toMatchObject({ operation: "memory_set", args: { key: "tz", value: "UTC" } });
    await sleep(1_500); // past desk.py's own one-second TIMEOUT: waiting on the person is off the clock
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    const outer = dataOf(events, "tool_call").find((c) => c.operation === "desk__remember")!;
    const nested = dataOf(events, "tool_call").filter((c) => c.parent === outer.callId);
    expect(nested.map((c) => c.operation)).toEqual(["memory_set", "memory_get"]);
    const results = dataOf(events, "tool_result");
    expect(results.find((r) => r.callId === outer.callId)).toMatchObject({ outcome: "ok", text: expect.stringMatching(/ \/ UTC$/) });
    // The model made one call and reads one result: the nested calls are the tool's business.
    expect(toolMessages(s.model.requests.at(-1)!)).toHaveLength(1);
    const rows = await s.database.db.select().from(audit).where(like(audit.action, "tool.executed%"));
    const mine = rows.filter((r) => (r.detail as { run?: string }).run === runId).map((r) => r.target).sort();
    expect(mine).toEqual(["desk__remember", "memory_set"]);
  });

  it("ctx.system refuses an operation the entry did not narrow to, and one the agent was not given, without running it", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__forget" }, { entry: "system:memory#memory_get" }] });
    s.model.reply(call("desk__forget", { key: "tz" }), text("done"));
    const narrowed = dataOf(await s.events(await s.run(agent)), "tool_result");
    expect(narrowed.find((r) => r.operation === "desk__forget")!.text).toBe(
      "refused: ctx.system.memory.memory_delete was refused and did not run: this agent's entry for system:memory does not name memory_delete.",
    );
    const alone = await s.agent({ tools: [{ entry: "tools/desk.py#desk__forget" }] });
    s.model.reply(call("desk__forget", { key: "tz" }), text("done"));
    const notGiven = dataOf(await s.events(await s.run(alone)), "tool_result");
    expect(notGiven.find((r) => r.operation === "desk__forget")!.text).toMatch(/this agent was not given memory_delete of system:memory/);
  });

  it("ctx.ask puts the question on the tool's card and waits without counting against its timeout", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__confirm" }] });
    s.model.reply(call("desk__confirm", { question: "Ship it?" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const question = await waitForEvent(s.runtime, runId, "question_asked");
    expect(question).toMatchObject({ question: "Ship it?", choices: ["yes", "no"] });
    const outer = dataOf(await s.events(runId), "tool_call")[0]!;
    expect(question.callId).toBe(outer.callId);
    // The run's row says so a moment after the approval event is out: the event is what a watcher waits on.
    await expect.poll(async () => (await s.runtime.get(runId)).run.status, { timeout: 10_000 }).toBe("waiting");
    await sleep(1_500);
    await s.runtime.answer(runId, question.callId, "yes", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(runId), "tool_result")[0]).toMatchObject({ outcome: "ok", text: "the person said yes" });
  });
});

describe("a restart while a tree tool waits on the person", () => {
  it("keeps a call hook's approval to this call only: “always” after a restart grants nothing more", async () => {
    writeHook(`def check(call):\n    return "ask"\n`);
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__note" }] });
    s.model.reply(call("desk__note", { text: "one" }), call("desk__note", { text: "two" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const first = await waitForEvent(s.runtime, runId, "approval_requested");
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");

    await s.runtime.shutdown();
    await s.database.close();
    s.database = await openDatabase({ dataDir: s.dataDir });
    s.runtime = new Runtime({ db: s.database.db, tree: s.tree, dataDir: s.dataDir, modelRetries: 0 });
    await s.runtime.connect();
    await expect.poll(() => s.runtime.isLive(runId), { timeout: 3_000 }).toBe(true);
    await s.runtime.decide(runId, first.callId, "always", ANN);
    const second = await waitForEvent(s.runtime, runId, "approval_requested", (a) => a.callId !== first.callId);
    await s.runtime.decide(runId, second.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(runId), "tool_result").map((r) => r.text)).toEqual(["noted one", "noted two"]);
  });

  it("R-journal-manual: the tool went with the old process, so its manual call waits for the person to say what happened", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__confirm" }] });
    s.model.reply(call("desk__confirm", { question: "Ship it?" }), text("I will check first."));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    await waitForEvent(s.runtime, runId, "question_asked");
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");

    await s.runtime.shutdown();
    await closeAll();
    await s.database.close();
    s.database = await openDatabase({ dataDir: s.dataDir });
    s.runtime = new Runtime({ db: s.database.db, tree: s.tree, dataDir: s.dataDir, modelRetries: 0 });
    await s.runtime.connect();
    const card = await waitForEvent(s.runtime, runId, "recovery_requested");
    expect(card).toMatchObject({ operation: "desk__confirm", why: "restarted" });
    await s.runtime.recover(runId, card.callId, "fail", ANN);
    await expect.poll(async () => (await settled(s, runId)).status, { timeout: 10_000 }).toBe("done");
    expect(dataOf(await s.events(runId), "tool_result")[0]).toMatchObject({ outcome: "failed", text: `${MARKED_FAILED}.` });
  });
});

