// The journal of a run's steps (R-journal-key): each model turn and each call the model made has a step key (run,
// step, call index) unique in run_steps. A call's row is written, and waited for, before the call is dispatched (a
// model turn's is not waited for, R-journal-model-turn), and
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

/** The run's journal in step order. */
export async function journalOf(db: Db, runId: string): Promise<JournalRow[]> {
  const rows = await db.select().from(runSteps).where(eq(runSteps.runId, runId)).orderBy(asc(runSteps.step), asc(runSteps.callIndex));
  return rows.map((r) => ({ step: r.step, index: r.callIndex, callId: r.callId, attempts: r.attempts, result: (r.result as ResultRecord | null) ?? null }));
}

/**
 * A model turn about to be asked: the run's next step (the same step again when its answer was never stored). Its row
 * is asked for, not waited for (R-journal-model-turn): a model request changes nothing a takeover must know of, so
 * the row is written while the model thinks; a write that fails ends the run at its next step, as an event's does.
 */
export function startModelTurn(run: Run): void {
  run.journalStep++;
  if (run.abandoned) return;
  const row = { kind: "start" as const, runId: run.id, key: { step: run.journalStep, index: 0 }, callId: null, operation: null, at: new Date() };
  // Carried by the run's events (R-journal-in-events): it lands before anything the turn's answer emits.
  run.deps.log.carry(row).catch((err: Error) => {
    run.storageError ??= err;
  });
}

/**
 * The model turn answered: how many calls it made, written with the turn's row when that still waits. Not waited
 * for: a lost answer is asked again anyway.
 */
export function endModelTurn(run: Run, calls: number): void {
  if (run.abandoned) return;
  void run.deps.log.carry({ kind: "result", runId: run.id, key: { step: run.journalStep, index: 0 }, result: { calls }, at: new Date() }).catch(() => undefined);
}

/** The calls of the turn just asked, keyed in the order the model made them. */
export function keyCalls(run: Run, prepared: PreparedCall[]): void {
  prepared.forEach((p, i) => (p.step = { step: run.journalStep, index: i + 1 }));
}
