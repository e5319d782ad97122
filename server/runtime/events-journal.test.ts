// A call's tool_started carries its journal row into the events' statement (R-journal-with-event): both are stored or
// neither is, a row the database refuses fails only its own event, and two rows of one step key never share a statement.
// The journal's other writes ride the same way (R-journal-in-events): a result in its event's statement or with its
// still queued row, a model turn's row with no event, and a refused result never costing its event.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { agents, runEvents, runs, runSteps } from "@/db/schema";
import { EventLog } from "./events";

let dir: string;
let database: Database;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-events-journal-"));
  database = await openDatabase({ dataDir: dir });
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function newRun(): Promise<string> {
  const db = database.db;
  const [agent] = await db.insert(agents).values({ name: `A ${Math.random()}`, declaration: { name: "A" }, createdBy: "u", updatedBy: "u" }).returning({ id: agents.id });
  const [run] = await db.insert(runs).values({ agentId: agent!.id, agentVersion: 1, declaration: { name: "A" }, startedBy: "u" }).returning({ id: runs.id });
  return run!.id;
}

const row = (runId: string, index: number, callId = `call-${index}`) => ({ runId, key: { step: 1, index }, callId, operation: "noop", at: new Date() });
const stepsOf = (runId: string) => database.db.select().from(runSteps).where(eq(runSteps.runId, runId)).orderBy(asc(runSteps.callIndex));
const eventsOf = async (runId: string) => (await database.db.select().from(runEvents).where(eq(runEvents.runId, runId)).orderBy(asc(runEvents.id))).map((e) => e.data);

describe("a tool_started with its journal row", () => {
  it("R-journal-with-event: stores the event and the row together, beside the batch's other events", async () => {
    const runId = await newRun();
    const log = new EventLog(database.db);
    const [first, started, last] = await Promise.all([
      log.append(runId, "tool_call", { callId: "call-1" }),
      log.append(runId, "tool_started", { callId: "call-1", attempt: 1 }, { step: row(runId, 1) }),
      log.append(runId, "progress", { callId: "call-1" }),
    ]);
    expect(Number(first.id) < Number(started.id) && Number(started.id) < Number(last.id)).toBe(true);
    expect((await stepsOf(runId)).map((s) => [s.callIndex, s.callId, s.attempts, s.result])).toEqual([[1, "call-1", 1, null]]);
    expect(await eventsOf(runId)).toEqual([{ callId: "call-1" }, { callId: "call-1", attempt: 1 }, { callId: "call-1" }]);
  });

  it("R-journal-with-event: a row the database refuses fails its own event only, and the rest of the batch is stored", async () => {
    const runId = await newRun();
    const log = new EventLog(database.db);
    // PostgreSQL's text holds no NUL: the journal's call id refuses it, while the event's data is stored escaped.
    const settled = await Promise.allSettled([
      log.append(runId, "tool_started", { callId: "call-1" }, { step: row(runId, 1) }),
      log.append(runId, "tool_started", { callId: "bad" }, { step: row(runId, 2, "a\u0000b") }),
      log.append(runId, "progress", { callId: "call-1" }),
    ]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((await stepsOf(runId)).map((s) => s.callIndex)).toEqual([1]);
    expect(await eventsOf(runId)).toEqual([{ callId: "call-1" }, { callId: "call-1" }]);
  });

  it("R-journal-with-event: two rows of one step key asked for at once are written one after the other", async () => {
    const runId = await newRun();
    const log = new EventLog(database.db);
    await Promise.all([
      log.append(runId, "tool_started", { callId: "call-1", attempt: 1 }, { step: row(runId, 1) }),
      log.append(runId, "tool_started", { callId: "call-1", attempt: 1 }, { step: row(runId, 1) }),
    ]);
    expect((await stepsOf(runId)).map((s) => [s.callIndex, s.attempts])).toEqual([[1, 2]]);
    expect(await eventsOf(runId)).toHaveLength(2);
  });
});

describe("the journal's writes carried by the events", () => {
  const answer = (runId: string, index: number, text: string) => ({ runId, key: { step: 1, index }, result: { outcome: "ok", text }, at: new Date() });

  it("R-journal-in-events: a result whose row still waits is written with that row, and one after it rides in its event's statement", async () => {
    const runId = await newRun();
    const log = new EventLog(database.db);
    // Neither waits for the other: the row is still queued when its result comes (a read-only call's way).
    await Promise.all([
      log.append(runId, "tool_started", { callId: "call-1" }, { step: row(runId, 1), urgent: false }),
      log.append(runId, "tool_result", { callId: "call-1" }, { result: answer(runId, 1, "at once") }),
    ]);
    await log.append(runId, "tool_started", { callId: "call-2" }, { step: row(runId, 2) });
    await log.append(runId, "tool_result", { callId: "call-2" }, { result: answer(runId, 2, "later") });
    const steps = await stepsOf(runId);
    expect(steps.map((s) => [s.callIndex, s.attempts, s.result, s.endedAt !== null])).toEqual([
      [1, 1, { outcome: "ok", text: "at once" }, true],
      [2, 1, { outcome: "ok", text: "later" }, true],
    ]);
    expect(await eventsOf(runId)).toHaveLength(4);
  });

  it("R-journal-in-events, R-journal-model-turn: a write with no event of its own is stored by the next batch, with no event", async () => {
    const runId = await newRun();
    const log = new EventLog(database.db);
    const turn = { kind: "start" as const, runId, key: { step: 1, index: 0 }, callId: null, operation: null, at: new Date() };
    await Promise.all([log.carry(turn), log.carry({ kind: "result", runId, key: { step: 1, index: 0 }, result: { calls: 0 }, at: new Date() })]);
    await log.carry({ ...turn, at: new Date() });
    expect((await stepsOf(runId)).map((s) => [s.callIndex, s.callId, s.attempts, s.result])).toEqual([[0, null, 2, null]]);
    expect(await eventsOf(runId)).toEqual([]);
  });

  it("R-journal-in-events: a result the database refuses leaves its event stored, and the batch's other writes land", async () => {
    const runId = await newRun();
    const log = new EventLog(database.db);
    await log.append(runId, "tool_started", { callId: "call-1" }, { step: row(runId, 1) });
    await log.append(runId, "tool_started", { callId: "call-2" }, { step: row(runId, 2) });
    // jsonb holds no NUL: this result is refused, while the event's own data is stored escaped.
    const settled = await Promise.allSettled([
      log.append(runId, "tool_result", { callId: "call-1" }, { result: answer(runId, 1, "a\u0000b") }),
      log.append(runId, "tool_result", { callId: "call-2" }, { result: answer(runId, 2, "fine") }),
    ]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled"]);
    expect((await stepsOf(runId)).map((s) => [s.callIndex, s.result])).toEqual([
      [1, null],
      [2, { outcome: "ok", text: "fine" }],
    ]);
    expect(await eventsOf(runId)).toHaveLength(4);
  });
});
