// A call is dispatched only once its events are stored (R-journal-started): while the writes of run_events are held
// back, the journal row of a call is written but the tool does not run, so a process killed at that moment leaves a
// takeover that finds the call, instead of one that asks the model again and runs a manual call twice.
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { runEvents, runSteps } from "@/db/schema";
import { Runtime } from "@/server/runtime";
import { call, text } from "@/tests/support/loopback-model";
import { ANN, sleep, studio, type Studio } from "./setup";

const MARKS = `"""Leaves a mark."""\n\nimport os\n\n\ndef leave(folder: str, tag: str) -> str:\n    """Leave one mark.\n\n    Args:\n        folder: Where.\n        tag: Which.\n    """\n    with open(os.path.join(folder, "marks.txt"), "a") as f:\n        f.write(tag + "\\n")\n    return "left"\n`;

/** The studio's database, with the inserts into run_events waiting while `hold` is set. */
function heldEvents(db: Db, gate: { hold: Promise<void> | null }): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "insert") {
        return (table: unknown) => {
          const real = (target.insert as (t: unknown) => { values(v: unknown): { returning(r: unknown): Promise<unknown> } })(table);
          const held = gate.hold;
          if (table !== runEvents || !held) return real;
          return { values: (v: unknown) => ({ returning: (r: unknown) => held.then(() => real.values(v).returning(r)) }) };
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as Db;
}

let s: Studio;
let runtime: Runtime;
let folder: string;
const gate: { hold: Promise<void> | null; open: () => void } = { hold: null, open: () => undefined };

beforeAll(async () => {
  s = await studio("dispatch-order", { "marks.py": MARKS });
  folder = path.join(s.tree, ".effects");
  fs.mkdirSync(folder);
  runtime = new Runtime({ db: heldEvents(s.database.db, gate), tree: s.tree, dataDir: s.dataDir, modelRetries: 0, retryMs: 10 });
  await runtime.connect();
});
afterAll(async () => {
  gate.open();
  await runtime?.shutdown();
  await s?.close();
});

const marks = () => (fs.existsSync(path.join(folder, "marks.txt")) ? fs.readFileSync(path.join(folder, "marks.txt"), "utf8").split("\n").filter(Boolean) : []);

describe("a call and its events", () => {
  it("R-journal-started: the tool runs only after the call's events are stored, though its journal row is written first", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/marks.py" }] });
    // A first run starts the tool host, so the second one's call would reach the tool at once.
    s.model.reply(call("marks__leave", { folder, tag: "warm" }), text("Done."));
    const first = await runtime.start({ agentId: agent, message: "Warm up.", user: ANN });
    await runtime.idle(first.runId);
    expect(marks()).toEqual(["warm"]);

    // The model's answer arrives with the event writes held back, as when a process dies before its batch is written.
    const closeGate = () => {
      gate.hold = new Promise<void>((resolve) => (gate.open = () => ((gate.hold = null), resolve())));
      return call("marks__leave", { folder, tag: "held" });
    };
    s.model.reply(closeGate, text("Done."));
    const { runId } = await runtime.start({ agentId: agent, message: "Leave a mark.", user: ANN });
    const callRow = () => s.database.db.select().from(runSteps).where(and(eq(runSteps.runId, runId), eq(runSteps.step, 1), eq(runSteps.callIndex, 1)));
    await expect.poll(async () => (await callRow()).length, { timeout: 15_000 }).toBe(1);
    await sleep(1500);
    expect(marks(), "the tool ran before its call's events were stored").toEqual(["warm"]);

    gate.open();
    await runtime.idle(runId);
    expect(marks()).toEqual(["warm", "held"]);
    const types = (await s.database.db.select().from(runEvents).where(eq(runEvents.runId, runId))).map((e) => e.type);
    expect(types.filter((t) => t === "tool_call" || t === "tool_started" || t === "tool_result")).toEqual(["tool_call", "tool_started", "tool_result"]);
  }, 60_000);
});
