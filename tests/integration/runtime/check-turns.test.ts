// A module's check() decides, turn by turn, whether its tool is offered in a run (R-check-turn), through the real
// tool host, loop and loopback model: a tree file whose check() follows a flag file is offered on the turns the
// flag is there, a name the model was offered earlier in the run still dispatches when check() now says no, and a
// name never offered in the run is refused.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, offeredTools, text, type RecordedRequest, type ScriptedReply } from "@/tests/support/loopback-model";
import { ANN, dataOf, studio, type Studio } from "./setup";

const ECHO = `def echo(text: str) -> str:
    """Say it back."""
    return text
`;

const GATED = `import os

FLAG = os.path.join(os.path.dirname(__file__), "flag.txt")

SCHEMA = {"name": "gated", "description": "Talk to the daemon.", "parameters": {"type": "object", "properties": {}}}


def check():
    return os.path.exists(FLAG)


async def execute(args, ctx):
    return "the daemon answered"
`;

let s: Studio;
let flag: string;
const up = () => fs.writeFileSync(flag, "up");
const down = () => fs.rmSync(flag, { force: true });

/** A reply that first records which tools the request offered and flips the flag as told. */
function seen(into: string[][], reply: ScriptedReply, flip?: "up" | "down") {
  return (request: RecordedRequest) => {
    into.push(offeredTools(request));
    if (flip === "up") up();
    if (flip === "down") down();
    return reply;
  };
}

beforeAll(async () => {
  // Every turn asks check() afresh, so a flip shows on the very next turn rather than 30 s later.
  s = await studio("check-turns", { "box.py": ECHO, "gated.py": GATED }, { checkMaxAgeS: 0 });
  flag = path.join(s.tree, "flag.txt");
});
beforeEach(() => {
  s.model.reset();
  down();
});

/**
 * An agent of these entries, saved while check() says yes (saving asks that each entry offer something), then the
 * flag down. Each flip gives the file a new mtime, so the host imports it afresh and the next catalog asks the new
 * check() rather than keeping the answer of the one it replaced for 30 s.
 */
async function agentOf(entries: string[]): Promise<string> {
  up();
  reimport();
  const agent = await s.agent({ tools: entries.map((entry) => ({ entry })) });
  down();
  reimport();
  return agent;
}

function reimport() {
  const file = path.join(s.tree, "gated.py");
  const later = new Date(fs.statSync(file).mtimeMs + 5_000);
  fs.utimesSync(file, later, later);
}
afterAll(async () => s?.close());

describe("check() gates each turn of a run", () => {
  it("R-check-turn: a tool is offered on the turns its check() says yes, and a name offered earlier still dispatches", async () => {
    const agent = await agentOf(["tools/box.py", "tools/gated.py"]);
    const offered: string[][] = [];
    s.model.reply(
      seen(offered, call("box__echo", { text: "hi" }), "up"),
      // Offered now; the flag goes down before the call runs, and it runs all the same.
      seen(offered, call("gated"), "down"),
      // Held back from this request, yet a name of an earlier turn still dispatches.
      seen(offered, call("gated")),
      seen(offered, text("done")),
    );
    const runId = await s.run(agent);
    const events = await s.events(runId);
    expect(offered).toEqual([["box__echo"], ["box__echo", "gated"], ["box__echo"], ["box__echo"]]);
    expect(dataOf(events, "tool_result").map((r) => [r.outcome, r.text])).toEqual([
      ["ok", "hi"],
      ["ok", "the daemon answered"],
      ["ok", "the daemon answered"],
    ]);
    const held = dataOf(events, "message").flatMap((m) => (m.role === "assistant" ? [m.held?.map((h) => h.name)] : []));
    expect(held).toEqual([["gated"], [], ["gated"], ["gated"]]);
    const started = dataOf(events, "run_started")[0]!;
    expect(started.tools.map((t) => t.name)).toEqual(["box__echo"]);
    expect(started.problems.join(" ")).toContain("it is offered from the first turn its check() answers True");
  });

  it("R-check-turn: a gated name never offered in the run is refused and does not run", async () => {
    const agent = await agentOf(["tools/box.py", "tools/gated.py"]);
    s.model.reply(call("gated"), text("ok"));
    const events = await s.events(await s.run(agent));
    const [result] = dataOf(events, "tool_result");
    expect(result).toMatchObject({ outcome: "refused", attempts: 0 });
    expect(result!.text).toBe("gated is not offered to you in this run (check() answered False), so it did not run. Call only the tools you were given.");
  });

  it("R-check-turn: a continued run remembers the names it was offered", async () => {
    const agent = await agentOf(["tools/gated.py"]);
    up();
    s.model.reply(text("It is there."));
    const runId = await s.run(agent);
    down();
    const offered: string[][] = [];
    s.model.reply(seen(offered, call("gated")), text("done"));
    await s.runtime.send({ runId, message: "Call it.", user: ANN });
    await s.runtime.idle(runId);
    expect(offered).toEqual([[]]);
    expect(dataOf(await s.events(runId), "tool_result").map((r) => [r.outcome, r.text])).toEqual([["ok", "the daemon answered"]]);
  });
});
