// A clean stop takes nothing more before it gives its runs back (R-queue-lease): a job given back while the process
// goes away stays for the next process, even when a look for jobs comes after, as the poll or a run's end makes one.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { RunQueue, type RunJob } from "./queue";

let dir: string;
let database: Database;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-queue-stop-"));
  database = await openDatabase({ dataDir: dir });
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A process's queue that records what it takes and has room for everything. */
async function taking(name: string) {
  const queue = await RunQueue.open(database.db, { supervise: false, name });
  const taken: string[] = [];
  await queue.startTaking({ take: async (job: RunJob) => void taken.push(job.runId), lost: () => undefined, room: () => 10 });
  return { queue, taken };
}

describe("a clean stop of the run queue (R-queue-lease)", () => {
  it("does not take again a run it gave back once it has stopped taking, whatever looks for jobs after", async () => {
    const runId = "0f6b6f0c-2b11-4c1e-9a55-6f1c0a528d0e";
    const first = await taking("quiver-runs-stop-test");
    expect(await first.queue.enqueue({ runId })).toBe(true);
    await first.queue.wake();
    expect(first.taken).toEqual([runId]);

    await first.queue.stopTaking();
    await first.queue.release(runId);
    // What the poll or the end of another run would do while the process goes away.
    await first.queue.wake();
    expect(first.taken).toEqual([runId]);
    expect(first.queue.holds(runId)).toBe(false);
    await first.queue.stop();

    const next = await taking("quiver-runs-stop-test");
    try {
      await next.queue.wake();
      expect(next.taken).toEqual([runId]);
    } finally {
      await next.queue.stop();
    }
  });
});
