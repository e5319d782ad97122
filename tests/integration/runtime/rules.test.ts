// The loop's rules around a call (docs/rules.md, Permissions, Timeouts and The loop around a call), through the real loop, tool host
// and loopback model: permissions with their precedence and session grants, approvals that wait off the clock,
// ask_user, concurrency and order, timeouts, retries, dedupe, and the plan.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PLANNING_LINE } from "@/server/runtime/prompt";
import { NO_ANSWER } from "@/server/system/ask-user";
import { DENIED } from "@/server/runtime/dispatch";
import { call, calls, text, toolMessages } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, sleep, studio, waitForEvent, type Studio } from "./setup";

const BOX = `"""Tools that take their time, count their calls, and fail on request."""

import json
import time
from pathlib import Path

from quiver import TransientError, tool

HERE = Path(__file__).parent


def _log(name: str, **args) -> None:
    with (HERE / "calls.log").open("a") as f:
        f.write(json.dumps({"tool": name, "t": time.monotonic(), **args}) + "\\n")


def _count(name: str) -> int:
    file = HERE / f"{name}.count"
    n = int(file.read_text()) + 1 if file.exists() else 1
    file.write_text(str(n))
    return n


@tool(risk="read", read_only=True)
def look(key: str, seconds: float = 0) -> str:
    """Read a value, taking its time.

    Args:
        key: Which value.
        seconds: How long to take.
    """
    _log("look", key=key, phase="start")
    time.sleep(seconds)
    _log("look", key=key, phase="end")
    return f"looked at {key}"


@tool(risk="write")
def put(key: str, seconds: float = 0) -> str:
    """Write a value, one at a time.

    Args:
        key: Which value.
        seconds: How long to take.
    """
    _log("put", key=key, phase="start")
    time.sleep(seconds)
    _log("put", key=key, phase="end")
    return f"put {key}"


@tool(risk="write")
def drop(key: str) -> str:
    """Drop a value.

    Args:
        key: Which value.
    """
    _log("drop", key=key)
    return f"dropped {key}"


@tool(risk="write", timeout=1)
def quick_put(seconds: float) -> str:
    """A write bounded at one second of its own.

    Args:
        seconds: How long to take.
    """
    time.sleep(seconds)
    return "quick put done"


@tool(replay="safe")
def nap(seconds: float) -> str:
    """Sleep, bounded by the policy's default.

    Args:
        seconds: How long.
    """
    time.sleep(seconds)
    return "rested"


@tool(timeout=4)
def patient(seconds: float) -> str:
    """Sleep, bounded at four seconds of its own.

    Args:
        seconds: How long.
    """
    time.sleep(seconds)
    return "patient done"


@tool(risk="network", replay="idempotent")
def flaky(name: str, failures: int) -> str:
    """Fail transiently a number of times, then work.

    Args:
        name: A counter's name.
        failures: How many calls fail first.
    """
    if _count(name) <= failures:
        raise TransientError("the service is busy")
    return "worked"


@tool(risk="network")
def flaky_manual(name: str, failures: int) -> str:
    """The same, but not safe to repeat.

    Args:
        name: A counter's name.
        failures: How many calls fail first.
    """
    if _count(name) <= failures:
        raise TransientError("the service is busy")
    return "worked"


@tool
def counted(name: str, extra: dict | None = None) -> str:
    """Count calls.

    Args:
        name: A counter's name.
        extra: Anything.
    """
    return f"call {_count(name)}"
`;

const ARGS = `"""A SCHEMA-and-execute module whose bound follows its timeout argument."""

SCHEMA = {
    "type": "function",
    "name": "waiter",
    "description": "Wait for the given number of seconds (not really).",
    "parameters": {"type": "object", "properties": {"timeout": {"type": "number"}}, "required": []},
}
ARG_TIMEOUT = True


async def execute(args, ctx):
    return "waited"
`;

const DESK = `"""A SCHEMA-and-execute module that waits on a person."""

import asyncio

SCHEMA = {
    "type": "function",
    "name": "desk",
    "description": "Wait at the desk until someone answers.",
    "parameters": {"type": "object", "properties": {}, "required": []},
}
INTERACTIVE = True
HEARTBEAT = ["Still waiting at the desk..."]


async def execute(args, ctx):
    await asyncio.sleep(1.2)
    return "someone answered"
`;

let s: Studio;
let open: string;

type LogLine = { tool: string; key: string; phase: string; t: number };
const log = (): LogLine[] => {
  const file = path.join(s.tree, "calls.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as LogLine) : [];
};
const clearLog = () => fs.rmSync(path.join(s.tree, "calls.log"), { force: true });

beforeAll(async () => {
  s = await studio("rules", { "box.py": BOX, "args.py": ARGS, "desk.py": DESK });
  open = await s.agent({ tools: [{ entry: "tools/box.py" }, { entry: "tools/args.py" }], policy: { retry: 2 } });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

describe("permissions", () => {
  it("applies R-perm-explicit-beats-default: an explicit ALLOW or DENY beats the agent's default ASK, which asks", async () => {
    clearLog();
    const agent = await s.agent({
      tools: [{ entry: "tools/box.py#box__look,box__put,box__drop", permissions: { box__look: "ALLOW", box__drop: "DENY" } }],
      policy: { permission: "ASK" },
    });
    s.model.reply(calls({ name: "box__look", arguments: { key: "a" } }, { name: "box__drop", arguments: { key: "b" } }, { name: "box__put", arguments: { key: "c" } }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    expect(asked).toMatchObject({ operation: "box__put", args: { key: "c" }, reason: "Needs approval (the agent's default)." });
    // The run's row says so a moment after the approval event is out: the event is what a watcher waits on.
    await expect.poll(async () => (await s.runtime.get(runId)).run.status, { timeout: 10_000 }).toBe("waiting");
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    expect(dataOf(events, "approval_requested").map((a) => a.operation)).toEqual(["box__put"]);
    const results = dataOf(events, "tool_result");
    expect(results.find((r) => r.operation === "box__drop")).toMatchObject({ outcome: "refused", text: "box__drop was refused and did not run: Refused by this operation's setting." });
    expect(results.find((r) => r.operation === "box__look")!.outcome).toBe("ok");
    expect(results.find((r) => r.operation === "box__put")!.outcome).toBe("ok");
    expect(log().map((l) => l.tool).filter((t) => t === "drop")).toEqual([]);
  });

  it("persists an approval as an approval_requested event, shows the run as waiting, and asks again after approving once", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/box.py#box__put", permissions: { box__put: "ASK" } }] });
    s.model.reply(call("box__put", { key: "1" }), call("box__put", { key: "2" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const first = await waitForEvent(s.runtime, runId, "approval_requested");
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");
    const stored = await s.events(runId);
    expect(stored.map((e) => e.type).slice(-2)).toEqual(["approval_requested", "status"]);
    // The run's row says so a moment after the approval event is out: the event is what a watcher waits on.
    await expect.poll(async () => (await s.runtime.get(runId)).run.status, { timeout: 10_000 }).toBe("waiting");
    await s.runtime.decide(runId, first.callId, "once", ANN);
    const second = await waitForEvent(s.runtime, runId, "approval_requested", (a) => a.callId !== first.callId);
    expect(second.args).toEqual({ key: "2" });
    await s.runtime.decide(runId, second.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(runId), "approval_decided")).toEqual([
      { callId: first.callId, decision: "once", by: { id: ANN.id, name: ANN.name } },
      { callId: second.callId, decision: "once", by: { id: ANN.id, name: ANN.name } },
    ]);
  });

  it("lets “always in this run” satisfy ASK for the rest of the run without another prompt", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/box.py#box__put", permissions: { box__put: "ASK" } }] });
    s.model.reply(call("box__put", { key: "1" }), call("box__put", { key: "2" }), call("box__put", { key: "3" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await s.runtime.decide(runId, asked.callId, "always", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    expect(dataOf(events, "approval_requested")).toHaveLength(1);
    expect(dataOf(events, "tool_result").map((r) => r.text)).toEqual(["put 1", "put 2", "put 3"]);
  });

  it("tells the model when the person denies a call, and does not run it", async () => {
    clearLog();
    const agent = await s.agent({ tools: [{ entry: "tools/box.py#box__drop", permissions: { box__drop: "ASK" } }] });
    s.model.reply(call("box__drop", { key: "all" }), text("understood"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await s.runtime.decide(runId, asked.callId, "deny", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(runId), "tool_result")[0]).toMatchObject({ outcome: "refused", text: DENIED, attempts: 0 });
    expect(toolMessages(s.model.requests.at(-1)!)[0]!.content).toBe(DENIED);
    expect(log()).toEqual([]);
    await expect(s.runtime.decide(runId, asked.callId, "once", ANN)).rejects.toThrow(/not waiting for anything/);
  });

  it("never counts time waiting for approval against the tool's timeout", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/box.py#box__quick_put", permissions: { box__quick_put: "ASK" } }] });
    s.model.reply(call("box__quick_put", { seconds: 0.5 }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await sleep(1_500); // longer than the operation's own one-second bound
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    await settled(s, runId);
    const events = await s.events(runId);
    expect(dataOf(events, "tool_started")[0]!.timeoutS).toBe(1);
    expect(dataOf(events, "tool_result")[0]).toMatchObject({ outcome: "ok", text: "quick put done" });
  });

  it("waits on ask_user with no timeout, and answers the model the person's reply, or that nobody answered", async () => {
    const agent = await s.agent({ tools: [{ entry: "system:ask_user" }] });
    s.model.reply(call("ask_user", { question: "Which inbox?", choices: ["work", "home"] }), call("ask_user", { question: "And the folder?" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Sort my mail.", user: ANN });
    const question = await waitForEvent(s.runtime, runId, "question_asked");
    expect(question).toMatchObject({ question: "Which inbox?", choices: ["work", "home"] });
    // The run's row says so a moment after the approval event is out: the event is what a watcher waits on.
    await expect.poll(async () => (await s.runtime.get(runId)).run.status, { timeout: 10_000 }).toBe("waiting");
    await s.runtime.answer(runId, question.callId, "work", ANN);
    const next = await waitForEvent(s.runtime, runId, "question_asked", (q) => q.callId !== question.callId);
    await s.runtime.answer(runId, next.callId, null, ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    expect(dataOf(events, "tool_started").map((t) => t.timeoutS)).toEqual([null, null]);
    expect(dataOf(events, "tool_result").map((r) => r.text)).toEqual(["The user answered: work", NO_ANSWER]);
  });

  it("gives an INTERACTIVE operation no timeout and no heartbeats", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py" }], policy: { timeout_s: 1 } });
    s.model.reply(call("desk"), text("done"));
    const events = await s.events(await s.run(agent));
    expect(dataOf(events, "tool_started")[0]!.timeoutS).toBeNull();
    expect(dataOf(events, "tool_result")[0]).toMatchObject({ outcome: "ok", text: "someone answered" });
    expect(dataOf(events, "progress")).toEqual([]);
  });
});

describe("concurrency", () => {
  it("runs read-only operations concurrently and the rest one at a time in the order asked, answering in call order", async () => {
    clearLog();
    s.model.reply(
      calls(
        { name: "box__put", arguments: { key: "p1", seconds: 0.4 } },
        { name: "box__look", arguments: { key: "l1", seconds: 0.8 } },
        { name: "box__put", arguments: { key: "p2", seconds: 0.2 } },
        { name: "box__look", arguments: { key: "l2", seconds: 0.8 } },
      ),
      text("done"),
    );
    const runId = await s.run(open);
    const lines = log();
    const at = (tool: string, key: string, phase: string) => lines.find((l) => l.tool === tool && l.key === key && l.phase === phase)!.t;
    // The reads overlap each other and the writes.
    expect(at("look", "l2", "start")).toBeLessThan(at("look", "l1", "end"));
    expect(at("look", "l1", "start")).toBeLessThan(at("put", "p1", "end"));
    // The writes run one at a time, in the order the model asked.
    expect(at("put", "p1", "end")).toBeLessThanOrEqual(at("put", "p2", "start"));
    const events = await s.events(runId);
    expect(dataOf(events, "tool_call").map((c) => c.args!.key)).toEqual(["p1", "l1", "p2", "l2"]);
    expect(toolMessages(s.model.requests.at(-1)!).map((m) => m.content)).toEqual(["put p1", "looked at l1", "put p2", "looked at l2"]);
  });
});

describe("timeouts", () => {
  // A safe call is told its timeout once it has no retries left; a manual one would wait for the person (R-journal-timeout).
  it("bounds a call by the policy's default timeout, answering a timeout the model can act on", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/box.py#box__nap,box__patient" }], policy: { timeout_s: 1, retry: 0 } });
    s.model.reply(calls({ name: "box__nap", arguments: { seconds: 2.5 } }, { name: "box__patient", arguments: { seconds: 1.5 } }), text("done"));
    const events = await s.events(await s.run(agent));
    const started = dataOf(events, "tool_started");
    expect(started.map((t) => [t.operation, t.timeoutS]).sort()).toEqual([
      ["box__nap", 1],
      ["box__patient", 4],
    ]);
    const results = dataOf(events, "tool_result");
    expect(results.find((r) => r.operation === "box__nap")).toMatchObject({ outcome: "timeout" });
    expect(results.find((r) => r.operation === "box__nap")!.text).toMatch(/^TimeoutError: box__nap did not finish within 1 s; it may have partly run/);
    // The operation's own timeout wins over the policy's.
    expect(results.find((r) => r.operation === "box__patient")).toMatchObject({ outcome: "ok", text: "patient done" });
  });

  it("never bounds a call above 600 s, whatever the call asks", async () => {
    s.model.reply(call("waiter", { timeout: 5_000 }), text("done"));
    const events = await s.events(await s.run(open));
    expect(dataOf(events, "tool_started")[0]!.timeoutS).toBe(600);
  });
});

describe("retries", () => {
  it("retries a transient failure of an idempotent operation up to policy.retry times", async () => {
    s.model.reply(calls({ name: "box__flaky", arguments: { name: "a", failures: 2 } }, { name: "box__flaky", arguments: { name: "b", failures: 5 } }), text("done"));
    const results = dataOf(await s.events(await s.run(open)), "tool_result");
    expect(results.map((r) => [r.outcome, r.attempts, r.text]).sort()).toEqual([
      ["ok", 3, "worked"],
      ["transient", 3, "TransientError: the service is busy"],
    ]);
  });

  it("never retries an operation whose replay policy is manual", async () => {
    s.model.reply(call("box__flaky_manual", { name: "m", failures: 1 }), text("done"));
    const result = dataOf(await s.events(await s.run(open)), "tool_result")[0]!;
    expect(result).toMatchObject({ outcome: "transient", attempts: 1 });
  });
});

describe("dedupe", () => {
  it("returns the first result for identical calls in one run when the policy dedupes", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/box.py#box__counted" }], policy: { dedupe: true } });
    s.model.reply(
      calls({ name: "box__counted", arguments: { name: "d1", extra: { a: 1, b: 2 } } }, { name: "box__counted", arguments: { extra: { b: 2, a: 1 }, name: "d1" } }),
      call("box__counted", { name: "d1", extra: { a: 1, b: 2 } }),
      call("box__counted", { name: "d1" }),
      text("done"),
    );
    const results = dataOf(await s.events(await s.run(agent)), "tool_result");
    expect(results.map((r) => [r.text, r.deduped])).toEqual([
      ["call 1", false],
      ["call 1", true],
      ["call 1", true],
      ["call 2", false],
    ]);
  });

  it("runs identical calls again when the policy does not dedupe", async () => {
    s.model.reply(call("box__counted", { name: "d2" }), call("box__counted", { name: "d2" }), text("done"));
    const results = dataOf(await s.events(await s.run(open)), "tool_result");
    expect(results.map((r) => [r.text, r.deduped])).toEqual([
      ["call 1", false],
      ["call 2", false],
    ]);
  });
});

describe("planning", () => {
  it("keeps the plan: write_todos replaces the list, the instructions gain the planning line, and the list rides on the newest message (R-loop-plan)", async () => {
    const agent = await s.agent({ instructions: "Sort files.", tools: [{ entry: "system:planning" }, { entry: "tools/box.py#box__look" }] });
    const todos = [
      { content: "Read the inbox", status: "in_progress" },
      { content: "File each message", status: "pending", owner: "me" },
    ];
    s.model.reply(call("write_todos", { todos }), call("box__look", { key: "inbox" }), call("write_todos", { todos: [{ content: "Read the inbox" }] }), text("done"));
    const runId = await s.run(agent);
    const events = await s.events(runId);
    expect(dataOf(events, "todos")).toEqual([{ todos }]);
    const results = dataOf(events, "tool_result");
    expect(results[2]).toMatchObject({ outcome: "refused", attempts: 0 });
    const requests = s.model.requests.slice(-4);
    expect(requests[0]!.body.messages[0]).toEqual({ role: "system", content: `Sort files.\n\n${PLANNING_LINE}` });
    // The plan rides on the newest message of each request once written, and stays where it was first sent.
    const withPlan = (r: (typeof requests)[number]) => r.body.messages.filter((m) => JSON.stringify(m.content ?? "").includes("Current plan (write_todos)")).length;
    expect(requests.map(withPlan)).toEqual([0, 1, 2, 3]);
    expect(JSON.stringify(requests[1]!.body.messages.at(-1)!.content)).toContain("[~] Read the inbox (in_progress)");
  });
});
