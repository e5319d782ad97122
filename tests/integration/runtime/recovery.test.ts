// Start-up recovery (recovery.ts) of many runs at once: every run a stopped process left running fails with one
// sentence, written for all of them together, so a crash with a hundred runs going does not cost a hundred round
// trips before the studio serves. Runs are written straight into the table: no loop drives them.
import { inArray } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runs } from "@/db/schema";
import { RESTARTED_DURING_RUN } from "@/server/runtime";
import { ANN, dataOf, studio, type Studio } from "./setup";

let s: Studio;
beforeAll(async () => {
  s = await studio("recovery", {});
});
afterAll(async () => s?.close());

describe("recovery at start-up", () => {
  it("fails every run left running with one UPDATE and one INSERT, however many there are", async () => {
    const rows = await s.database.db
      .insert(runs)
      .values(Array.from({ length: 30 }, () => ({ agentId: randomUUID(), agentVersion: 1, declaration: { name: "left" }, startedBy: ANN.id })))
      .returning({ id: runs.id });
    const ids = rows.map((row) => row.id);

    const client = (s.database.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const spy = vi.spyOn(client, "query");
    const recovered = await s.runtime.recover();
    await s.runtime.log.flushed();
    const sent = spy.mock.calls.length;
    spy.mockRestore();

    expect(recovered).toEqual({ failed: expect.arrayContaining(ids), waiting: [] });
    expect(recovered.failed).toHaveLength(30);
    // The running runs read, failed, their events stored; then the waiting ones read.
    expect(sent).toBe(4);
    const after = await s.database.db.select().from(runs).where(inArray(runs.id, ids));
    expect(after.every((row) => row.status === "failed" && row.error === RESTARTED_DURING_RUN && row.endedAt !== null)).toBe(true);
    for (const id of ids.slice(0, 3)) {
      expect(dataOf(await s.events(id), "status")).toEqual([{ status: "failed", error: RESTARTED_DURING_RUN }]);
    }
  });
});
