// Start-up recovery: what to do with the runs a stopped studio process left behind. Edit when what a restart
// means for a run changes (which runs fail, which wait on, which go on at once).
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runs } from "@/db/schema";
import type { EventLog } from "./events";
import type { Run } from "./run";
import { runRow, runsWithStatus } from "./store";

export const RESTARTED_DURING_RUN = "The studio restarted during this run.";

/** What recovery needs of the runtime: its loops, and which runs another process still drives. */
export type Recovering = {
  db: Db;
  log: EventLog;
  isLive(runId: string): boolean;
  /** Of these runs, the ones no other studio process drives. */
  leftOver(ids: string[]): Promise<string[]>;
  /** The run rebuilt from its events, not yet driven. */
  rebuild(runId: string): Promise<Run>;
  launch(run: Run): void;
};

/**
 * A run that was running when the studio stopped has failed, and says so; one waiting for approval stays waiting,
 * and is rebuilt from its events when the decision arrives; one that waited only inside a tool goes on at once.
 * Runs another process sharing the database is driving are its own: left as they are.
 */
export async function recover(r: Recovering): Promise<{ failed: string[]; waiting: string[] }> {
  const running = (await r.leftOver(await runsWithStatus(r.db, "running"))).filter((id) => !r.isLive(id));
  const failed = await failAll(r, running);
  const waiting: string[] = [];
  for (const id of await r.leftOver(await runsWithStatus(r.db, "waiting"))) {
    if (r.isLive(id)) continue;
    // A run whose only wait lived in a tool (a tree tool's ctx.ask, or the approval of a call it made through
    // ctx.system) waits on nothing now: that tool went with the old process. It goes on at once, the call
    // answering that the studio restarted, rather than show a question nobody can answer.
    const run = await r.rebuild(id).catch(() => null);
    // A specialist's run waited for the call that asked it, which the restart answered already (R-spec-stop): nobody
    // would take its reply, so it stops rather than wait for a decision that leads nowhere.
    if (run && (await runRow(r.db, id)).parentRunId) {
      run.cancel({ id: run.startedBy, name: "the studio's restart" });
      r.launch(run);
    } else if (run && !run.waiting) r.launch(run);
    else waiting.push(id);
  }
  return { failed, waiting };
}

/**
 * The left-over running runs failed at once: one UPDATE for all of them and their status events stored together,
 * however many a crash left. A run that ended meanwhile (its row no longer "running") is not touched.
 */
async function failAll(r: Recovering, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await r.db
    .update(runs)
    .set({ status: "failed", error: RESTARTED_DURING_RUN, endedAt: new Date() })
    .where(and(inArray(runs.id, ids), eq(runs.status, "running")))
    .returning({ id: runs.id });
  const failed = ids.filter((id) => rows.some((row) => row.id === id));
  await Promise.all(failed.map((id) => r.log.append(id, "status", { status: "failed", error: RESTARTED_DURING_RUN })));
  return failed;
}
