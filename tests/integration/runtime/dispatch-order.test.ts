// A call is dispatched only once its events are stored (R-journal-started), and its journal row is stored by the same
// statement as its tool_started (R-journal-with-event): while the writes of run_events are held back, neither the row
// nor the events are stored and the tool does not run, so a process killed at that moment leaves a takeover that asks
// the model again for a call that never ran, never one that finds half of the record and runs a manual call twice.
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

type Client = { query(text: string, params?: unknown[]): Promise<unknown> };

/**
 * The studio's database, with the writes into run_events (alone or with journal rows) waiting while `hold` is set.
 * Those statements go to the driver as text (R-events-text-statement), so the driver's client is what is held.
 */
function heldEvents(db: Db, gate: Gate): Db {
  const client = (db as unknown as { $client: Client }).$client;
  const held: Client = {
    query(text, params) {
      const hold = gate.hold;
      if (!hold || !text.includes("INSERT INTO run_events")) return client.query(text, params);
      gate.held++;
      return hold.then(() => client.query(text, params));
    },
  };
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "$client") return new Proxy(client, { get: (c, p) => (p === "query" ? held.query : (Reflect.get(c, p) as unknown)) });
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as Db;
}

const LOOK = `"""Looks, changing nothing."""\n\nimport os\nfrom quiver import tool\n\n\n@tool(replay="safe")\ndef look(folder: str, tag: str) -> str:\n    """Look once (the mark is the test's way to see it ran).\n\n    Args:\n        folder: Where.\n        tag: Which.\n    """\n    with open(os.path.join(folder, "marks.txt"), "a") as f:\n        f.write(tag + "\\n")\n    return "looked"\n`;

let s: Studio;
let runtime: Runtime;
let folder: string;
/** `held`: how many writes of run_events waited on the gate. */
type Gate = { hold: Promise<void> | null; open: () => void; held: number };
const gate: Gate = { hold: null, open: () => undefined, held: 0 };

beforeAll(async () => {
  s = await studio("dispatch-order", { "marks.py": MARKS, "look.py": LOOK });
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
  it("R-journal-started, R-journal-with-event: the tool runs only after the call's events and its journal row are stored, by one statement", async () => {
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
    // The run's events from the model's answer on, the call's tool_started and its row among them, wait on the gate.
    await expect.poll(() => gate.held, { timeout: 15_000 }).toBeGreaterThan(0);
    await sleep(1500);
    expect(marks(), "the tool ran before its call's events were stored").toEqual(["warm"]);
    expect(await callRow(), "the call's journal row was stored without its tool_started").toHaveLength(0);

    gate.open();
    await runtime.idle(runId);
    expect(marks()).toEqual(["warm", "held"]);
    expect(await callRow()).toHaveLength(1);
    const types = (await s.database.db.select().from(runEvents).where(eq(runEvents.runId, runId))).map((e) => e.type);
    expect(types.filter((t) => t === "tool_call" || t === "tool_started" || t === "tool_result")).toEqual(["tool_call", "tool_started", "tool_result"]);
  }, 60_000);

  it("R-journal-safe-at-once: a read-only call runs while its events and row wait, and its result is written after its row", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/look.py" }] });
    const before = marks().length;
    const closeGate = () => {
      gate.hold = new Promise<void>((resolve) => (gate.open = () => ((gate.hold = null), resolve())));
      return call("look__look", { folder, tag: "looked" });
    };
    s.model.reply(closeGate, text("Done."));
    const { runId } = await runtime.start({ agentId: agent, message: "Look.", user: ANN });
    await expect.poll(() => marks().length, { timeout: 15_000 }).toBe(before + 1);
    const callRow = () => s.database.db.select().from(runSteps).where(and(eq(runSteps.runId, runId), eq(runSteps.step, 1), eq(runSteps.callIndex, 1)));
    expect(await callRow(), "nothing of the call is stored while the gate is shut").toHaveLength(0);

    gate.open();
    await runtime.idle(runId);
    const [row] = await callRow();
    expect(row?.result, "the call's result is in the journal once its row is").toMatchObject({ outcome: "ok", text: "looked" });
    const types = (await s.database.db.select().from(runEvents).where(eq(runEvents.runId, runId))).map((e) => e.type);
    expect(types.filter((t) => t === "tool_call" || t === "tool_started" || t === "tool_result")).toEqual(["tool_call", "tool_started", "tool_result"]);
  }, 60_000);
});
