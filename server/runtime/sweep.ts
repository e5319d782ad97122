// The runs the queue would otherwise never see again (R-queue-sweep): unfinished runs whose job is gone (a studio
// from before runs were jobs, a process that died between writing a run and queueing it, a run whose holders died
// more times than the queue retries). A process that takes runs looks for them at start-up and every few minutes and
// queues each one; a run that has a job already is left alone by the queue's one-job-per-run policy. It looks only
// at the runs of its own queue, the one each run recorded when it was written: another queue's runs are its own
// processes' to find.
import { and, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runs } from "@/db/schema";

/** Younger runs are being started right now by some process, which queues them itself. */
const SETTLED_MS = 60_000;

/** The queue's unfinished runs started long enough ago, specialists' runs aside (their asker's holder answers for them). */
export async function unfinishedRuns(db: Db, queue: string, now = Date.now()): Promise<string[]> {
  const rows = await db
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.queue, queue), inArray(runs.status, ["running", "waiting"]), isNull(runs.parentRunId), lt(runs.startedAt, new Date(now - SETTLED_MS))));
  return rows.map((r) => r.id);
}

/** A run's specialists' runs that have not ended. */
export async function unfinishedChildren(db: Db, runId: string): Promise<string[]> {
  const rows = await db
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.parentRunId, runId), inArray(runs.status, ["running", "waiting"])));
  return rows.map((r) => r.id);
}

/** What a run says when its job came back and no process had begun it: its start went with the process. */
export const STOPPED_BEFORE_START = "The studio stopped before this run could start; start it again.";
