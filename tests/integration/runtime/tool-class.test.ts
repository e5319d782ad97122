// A Tool class's own answers in a run (docs/rules.md, Tool classes): through the real loop, the real tool host and
// the loopback model, whether a call runs beside the others of its turn and whether it asks first follow what the
// class says of these very arguments, and its progress line goes out when the call starts.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { calls, call, text } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, waitForEvent, type Studio } from "./setup";

const DB = `"""A pretend database whose calls say per statement how they behave."""

import json
import time
from dataclasses import dataclass
from pathlib import Path

from quiver import Operation, Tool, ToolResult

LOG = Path(__file__).with_name("calls.log")


@dataclass
class Statement:
    """One statement.

    Attributes:
        sql: The statement.
        wait: Seconds it takes.
    """

    sql: str
    wait: float = 0.0


class Db(Tool):
    name = "db"
    operations = {"run": Operation(title="Run a statement", description="Run one statement.", input_model=Statement)}

    def is_concurrency_safe(self, args) -> bool:
        return args.sql.startswith("SELECT")

    def is_destructive(self, args) -> bool:
        return args.sql.startswith("DELETE")

    def progress_message(self, args) -> str:
        return f"Running {args.sql}"

    def call(self, args, ctx):
        start = time.monotonic()
        time.sleep(args.wait)
        with LOG.open("a") as f:
            f.write(json.dumps({"sql": args.sql, "start": start, "end": time.monotonic()}) + "\\n")
        return ToolResult.ok(args.sql)
`;

type Logged = { sql: string; start: number; end: number };

let s: Studio;
let agent: string;
const log = (): Logged[] => {
  const file = path.join(s.tree, "calls.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Logged) : [];
};
const overlap = (a: Logged, b: Logged) => a.start < b.end && b.start < a.end;

beforeAll(async () => {
  s = await studio("tool-class", { "db.py": DB });
  agent = await s.agent({ tools: [{ entry: "tools/db.py" }] });
});
beforeEach(() => {
  s.model.reset();
  fs.rmSync(path.join(s.tree, "calls.log"), { force: true });
});
afterAll(async () => s?.close());

describe("per-call behaviour", () => {
  it("R-tool-class-per-call: calls the class says are concurrency-safe run together, the others one at a time", async () => {
    s.model.reply(
      calls(
        { name: "db__run", arguments: { sql: "SELECT a", wait: 0.6 } },
        { name: "db__run", arguments: { sql: "SELECT b", wait: 0.6 } },
        { name: "db__run", arguments: { sql: "UPDATE c", wait: 0.3 } },
        { name: "db__run", arguments: { sql: "UPDATE d", wait: 0.3 } },
      ),
      text("done"),
    );
    const runId = await s.run(agent);
    expect(dataOf(await s.events(runId), "tool_result").map((r) => r.outcome)).toEqual(["ok", "ok", "ok", "ok"]);
    const by = Object.fromEntries(log().map((l) => [l.sql, l]));
    expect(overlap(by["SELECT a"]!, by["SELECT b"]!)).toBe(true);
    expect(overlap(by["UPDATE c"]!, by["UPDATE d"]!)).toBe(false);
  });

  it("R-tool-class-per-call: a call the class says is destructive asks first, though the agent's default allows", async () => {
    s.model.reply(calls({ name: "db__run", arguments: { sql: "INSERT e" } }, { name: "db__run", arguments: { sql: "DELETE f" } }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    expect(asked).toMatchObject({ operation: "db__run", args: { sql: "DELETE f" }, reason: "Needs approval (its tool, which says this call is destructive)." });
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(runId), "approval_requested")).toHaveLength(1);
    expect(log().map((l) => l.sql).sort()).toEqual(["DELETE f", "INSERT e"]);
  });

  it("R-tool-class-progress: the class's progress line goes out when the call starts", async () => {
    s.model.reply(call("db__run", { sql: "SELECT g" }), text("done"));
    const runId = await s.run(agent);
    expect(dataOf(await s.events(runId), "progress").map((p) => [p.kind, p.message])).toEqual([["progress", "Running SELECT g"]]);
  });
});
