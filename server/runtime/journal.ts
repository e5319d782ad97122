// The journal of a run's steps (R-journal-key): each model turn and each call the model made has a step key (run,
// step, call index) unique in run_steps. A call's row is written, and waited for, before the call is dispatched, and
// its result when it returns (R-journal-started), so whichever process takes the run over knows which calls may
// have run and what each answered, even where the run's events (written in batches, not waited for) had not been
// stored yet when its process died (R-journal-replay). The rows of every run are written in groups, one statement
// per kind of write at a time (journal-writer.ts, R-journal-group).
import { createHash } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runSteps } from "@/db/schema";
import { journalWriter } from "./journal-writer";
import type { PreparedCall, ResultRecord, Run } from "./run";
import type { StepKey } from "./shapes";

export type { StepKey };

export type JournalRow = { step: number; index: number; callId: string | null; attempts: number; result: ResultRecord | null };

/**
 * The key a call's idempotent replays share (R-journal-idempotent): the same for every dispatch of one step key, in
 * whichever process, and different for every other call.
 */
export function idempotencyKey(runId: string, key: StepKey): string {
  return createHash("sha256").update(`${runId}/${key.step}/${key.index}`).digest("hex").slice(0, 32);
}

/**
 * The step started: its row written (a second dispatch of the same key counts one attempt more, never a second row).
 * Resolves once the row is stored, in a group with the other runs' journal writes of the moment (R-journal-group).
 */
export function journalStart(db: Db, runId: string, key: StepKey, call: { callId: string | null; operation: string | null }): Promise<void> {
  return journalWriter(db).push({ kind: "start", runId, key, callId: call.callId, operation: call.operation, at: new Date() });
}

/** What the step answered; resolves once it is stored. */
export function journalResult(db: Db, runId: string, key: StepKey, result: Record<string, unknown>): Promise<void> {
  return journalWriter(db).push({ kind: "result", runId, key, result, at: new Date() });
}

/** The run's journal in step order. */
export async function journalOf(db: Db, runId: string): Promise<JournalRow[]> {
  const rows = await db.select().from(runSteps).where(eq(runSteps.runId, runId)).orderBy(asc(runSteps.step), asc(runSteps.callIndex));
  return rows.map((r) => ({ step: r.step, index: r.callIndex, callId: r.callId, attempts: r.attempts, result: (r.result as ResultRecord | null) ?? null }));
}

/** A model turn about to be asked: the run's next step (the same step again when its answer was never stored). */
export async function startModelTurn(run: Run): Promise<void> {
  run.journalStep++;
  await journalStart(run.deps.db, run.id, { step: run.journalStep, index: 0 }, { callId: null, operation: null });
}

/** The model turn answered: how many calls it made. Not waited for: a lost answer is asked again anyway. */
export function endModelTurn(run: Run, calls: number): void {
  void journalResult(run.deps.db, run.id, { step: run.journalStep, index: 0 }, { calls }).catch(() => undefined);
}

/** The calls of the turn just asked, keyed in the order the model made them. */
export function keyCalls(run: Run, prepared: PreparedCall[]): void {
  prepared.forEach((p, i) => (p.step = { step: run.journalStep, index: i + 1 }));
}
