// The run of a job this process took, built to drive (R-queue-lease): begun here when no process had begun it,
// rebuilt from its events and journal when one had (R-journal-replay), or ended with why when it cannot go on here
// (it never began and its start is gone, or its published version cannot be had). Taking over a run also stops the
// specialists' runs its old process drove beside it (R-spec-stop). Edit when what taking a run over does changes.
import type { Db } from "@/db/client";
import type { StartInput } from "./begin";
import type { EventLog } from "./events";
import { journalOf } from "./journal";
import { startOf } from "./replay";
import type { Run } from "./run";
import type { RunMaker } from "./run-maker";
import { runRow, updateRun, type RunRow } from "./store";
import { STOPPED_BEFORE_START, unfinishedChildren } from "./sweep";
import type { RunTrees } from "./trees";

/** A run ready to drive, and what to do before its loop (begin it) when it is new. */
export type Built = { run: Run; before?: () => Promise<void> };

export type TakenParts = {
  db: Db;
  log: EventLog;
  trees: RunTrees;
  maker: RunMaker;
  /** The row of a run started here and not yet taken, handed over once. */
  startedHere(runId: string): RunRow | undefined;
  /** Whether this process drives the run already. */
  drives(runId: string): boolean;
  /** Drive a specialist's run here, beside its asker, without a job. */
  launch(run: Run): void;
};

/** The run of a job, ready to drive; null when it has ended (or never started and cannot now). */
export async function takenRun(c: TakenParts, runId: string, fresh: StartInput | undefined, start?: StartInput): Promise<Built | null> {
  const here = c.startedHere(runId);
  // A run started here and taken here on its job's first attempt: its row is at hand, and it has no events yet.
  const row = (fresh && here) || (await runRow(c.db, runId));
  if (row.status !== "running" && row.status !== "waiting") return null;
  const tree = await treeOf(c, row);
  if (!tree) return null;
  if (fresh) {
    const run = c.maker.fresh(row, tree);
    return { run, before: () => c.maker.begin(run, fresh) };
  }
  const events = await c.log.stored(runId);
  if (startOf(events)) {
    const run = c.maker.rebuilt(row, events, await journalOf(c.db, runId), tree);
    await stopChildren(c, runId);
    // A specialist's run waited for the call that asked it, which went with the old process (R-spec-stop).
    if (row.parentRunId) run.cancel({ id: run.startedBy, name: "the studio's restart" });
    return { run };
  }
  if (!start) {
    await updateRun(c.db, runId, { status: "failed", error: STOPPED_BEFORE_START, endedAt: new Date() });
    await c.log.append(runId, "status", { status: "failed", error: STOPPED_BEFORE_START });
    return null;
  }
  const run = c.maker.fresh(row, tree);
  return { run, before: () => c.maker.begin(run, start) };
}

/** The run's tree on this process's disk; null, the run failed with why, when its version cannot be had here. */
async function treeOf(c: TakenParts, row: RunRow): Promise<string | null> {
  try {
    return await c.trees.of(row);
  } catch (err) {
    const error = `The run's tree (published version ${row.treeVersion}) could not be read here: ${(err as Error).message}`;
    await updateRun(c.db, row.id, { status: "failed", error, endedAt: new Date() });
    await c.log.append(row.id, "status", { status: "failed", error });
    return null;
  }
}

/** A specialist's run whose asker was taken over: its asking call answers that the studio restarted (R-spec-stop). */
async function stopChildren(c: TakenParts, runId: string): Promise<void> {
  for (const childId of await unfinishedChildren(c.db, runId)) {
    if (c.drives(childId)) continue;
    const child = await c.maker.rebuild(childId).catch(() => null);
    if (!child) continue;
    child.cancel({ id: child.startedBy, name: "the studio's restart" });
    c.launch(child);
  }
}
