// The start-up sweep (R-queue-sweep) of many unfinished runs that have no job: each is queued, taken, and, since no
// process had begun it and its start went with the process, ends failed with one sentence; a run younger than a
// minute is being started by some process right now and is left alone, and so are the runs of another queue (each run
// records the queue whose processes drive it). Runs are written straight into the table.
import { inArray } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runs } from "@/db/schema";
import { STOPPED_BEFORE_START } from "@/server/runtime/sweep";
import { ANN, dataOf, studio, type Studio } from "./setup";

let s: Studio;
beforeAll(async () => {
  s = await studio("sweep", {});
});
afterAll(async () => s?.close());

describe("the sweep of runs without a job", () => {
  it("R-queue-sweep: queues every unfinished run left without a job, however many, and leaves a young one alone", async () => {
    const old = new Date(Date.now() - 5 * 60_000);
    const rows = await s.database.db
      .insert(runs)
      .values(Array.from({ length: 30 }, () => ({ agentId: randomUUID(), agentVersion: 1, declaration: { name: "left" }, startedBy: ANN.id, startedAt: old })))
      .returning({ id: runs.id });
    const ids = rows.map((row) => row.id);
    const [young] = await s.database.db.insert(runs).values({ agentId: randomUUID(), agentVersion: 1, declaration: { name: "young" }, startedBy: ANN.id }).returning({ id: runs.id });

    await s.runtime.connect();
    for (const id of ids) await s.runtime.idle(id);
    await s.runtime.log.flushed();

    const after = await s.database.db.select().from(runs).where(inArray(runs.id, [...ids, young!.id]));
    const ended = after.filter((row) => row.id !== young!.id);
    expect(ended).toHaveLength(30);
    expect(ended.every((row) => row.status === "failed" && row.error === STOPPED_BEFORE_START && row.endedAt !== null)).toBe(true);
    expect(after.find((row) => row.id === young!.id)).toMatchObject({ status: "running" });
    for (const id of ids.slice(0, 3)) {
      expect(dataOf(await s.events(id), "status")).toEqual([{ status: "failed", error: STOPPED_BEFORE_START }]);
    }
  });

  it("R-queue-sweep: a sweep on queue A queues A's runs and leaves queue B's alone", async () => {
    const a = await studio("sweep-a", {}, { queue: "sweep-a" });
    try {
      const old = new Date(Date.now() - 5 * 60_000);
      const left = (queue: string) => ({ agentId: randomUUID(), agentVersion: 1, declaration: { name: queue }, startedBy: ANN.id, startedAt: old, queue });
      const ofA = (await a.database.db.insert(runs).values([left("sweep-a"), left("sweep-a")]).returning({ id: runs.id })).map((row) => row.id);
      const ofB = (await a.database.db.insert(runs).values([left("sweep-b"), left("sweep-b"), left("sweep-b")]).returning({ id: runs.id })).map((row) => row.id);

      await a.runtime.connect();
      for (const id of ofA) await a.runtime.idle(id);
      await a.runtime.log.flushed();

      const after = new Map((await a.database.db.select().from(runs).where(inArray(runs.id, [...ofA, ...ofB]))).map((row) => [row.id, row]));
      expect(ofA.map((id) => after.get(id)!.status)).toEqual(["failed", "failed"]);
      expect(ofB.map((id) => after.get(id)!.status)).toEqual(["running", "running", "running"]);
      for (const id of ofB) expect(await a.events(id)).toEqual([]);
      expect(a.runtime.liveRuns()).toEqual([]);
    } finally {
      await a.close();
    }
  });
});
