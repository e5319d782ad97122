// Whether an embedded studio has work for its run queue and scheduler as it starts (R-boot-queue-on-use): a run of its
// queue not yet finished (running, or waiting on a person: the process before held it), or a schedule that is on (its
// missed ticks are caught up at start, R-trigger-schedule-catch-up). Apart from the runtime, so that asking loads
// nothing of it.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runs, schedules } from "@/db/schema";

export async function workWaiting(db: Db, queue: string): Promise<boolean> {
  const [run] = await db
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.queue, queue), inArray(runs.status, ["running", "waiting"])))
    .limit(1);
  if (run) return true;
  const [schedule] = await db.select({ id: schedules.id }).from(schedules).where(eq(schedules.enabled, true)).limit(1);
  return schedule !== undefined;
}
