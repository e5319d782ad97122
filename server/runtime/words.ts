// The person's word on a run (a decision, an answer, a stop) is written to the database before anything acts on it
// (R-queue-word): the process holding the run applies it, at once when it is told over the bus, else on its next
// lease refresh, and a process taking the run over applies what it finds. One word per call: the second is refused
// here, so a decision is never applied twice nor lost. Edit when what a person can say to a run changes.
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runWords, type RunWordKind } from "@/db/schema";
import { DomainError } from "@/server/errors";
import type { EventLog } from "./events";
import type { Run } from "./run";
import { nothingToDecide, type WaitKind } from "./waits";
import type { Decision, Person, RecoveryAction } from "./shapes";
import { runRow } from "./store";

export type Word =
  | { kind: "decide"; callId: string; decision: Decision; by: Person; note?: string }
  | { kind: "answer"; callId: string; answer: string | null; by: Person }
  | { kind: "recover"; callId: string; action: RecoveryAction; text?: string; by: Person; round?: number }
  | { kind: "cancel"; by: Person };

type StoredWord = { id: number; runId: string; word: Word };

export function notWaiting(runId: string): DomainError {
  return new DomainError("CONFLICT", "NOT_WAITING", "This run is not waiting for anything; it may have finished or been decided already.", { id: runId });
}

export { nothingToDecide };

/** What the waiting call is told of a decision: its note only where the person wrote one. */
export function decisionOf(word: Extract<Word, { kind: "decide" }>) {
  return { decision: word.decision, by: word.by, ...(word.note ? { note: word.note } : {}) };
}

/** The wait a word is for. */
export const kindOf = (word: Exclude<Word, { kind: "cancel" }>): WaitKind => (word.kind === "decide" ? "approval" : word.kind === "answer" ? "question" : "recovery");

const ASKED: Record<WaitKind, string> = { approval: "approval_requested", question: "question_asked", recovery: "recovery_requested" };
const CLOSED = ["approval_decided", "question_answered", "recovery_decided", "tool_result"];

/**
 * For a run this process does not drive: whether its stored events show the call waiting for this word (asked,
 * and neither decided nor answered since), as the holder would see it.
 */
export async function checkWaiting(db: Db, log: EventLog, runId: string, word: Exclude<Word, { kind: "cancel" }>): Promise<number> {
  const row = await runRow(db, runId);
  if (row.status !== "running" && row.status !== "waiting") throw notWaiting(runId);
  const asked = ASKED[kindOf(word)];
  const events = await log.stored(runId, 0, [asked, ...CLOSED] as never);
  let open = false;
  let round = 0;
  for (const event of events) {
    if (event.data.callId !== word.callId) continue;
    open = event.type === asked;
    if (open) round = Number(event.data.round ?? 0);
  }
  if (!open) throw nothingToDecide(runId, word.callId, kindOf(word));
  return round;
}

/** The word stored; refused when the call has a word already (decided or answered by someone else just now). */
export async function writeWord(db: Db, runId: string, word: Word): Promise<number> {
  const { kind, ...data } = word;
  const [row] = await db
    .insert(runWords)
    // A call is asked whether it ran once per round (R-journal-manual): one word per round.
    .values({ runId, kind, callId: word.kind === "cancel" ? null : word.kind === "recover" ? `${word.callId}/recover-${word.round ?? 0}` : word.callId, data })
    .onConflictDoNothing()
    .returning({ id: runWords.id });
  if (!row) throw nothingToDecide(runId, (word as { callId: string }).callId, kindOf(word as Exclude<Word, { kind: "cancel" }>));
  return row.id;
}

/** The words on these runs written after `after` (per run), oldest first. */
export async function wordsAfter(db: Db, runIds: string[], after: (runId: string) => number): Promise<StoredWord[]> {
  if (runIds.length === 0) return [];
  const floor = Math.min(...runIds.map(after));
  const rows = await db
    .select()
    .from(runWords)
    .where(and(inArray(runWords.runId, runIds), gt(runWords.id, floor)))
    .orderBy(asc(runWords.id));
  return rows
    .filter((r) => r.id > after(r.runId))
    .map((r) => ({ id: r.id, runId: r.runId, word: { kind: r.kind as RunWordKind, ...(r.callId ? { callId: r.callId } : {}), ...r.data } as Word }));
}

/** The run's words, gone: it had ended, so they were for what it was then. */
export async function clearWords(db: Db, runId: string): Promise<void> {
  await db.delete(runWords).where(eq(runWords.runId, runId));
}

/** Every word on one run, oldest first. */
export function wordsOf(db: Db, runId: string): Promise<StoredWord[]> {
  return wordsAfter(db, [runId], () => 0);
}

/** The word acted on, where the run still waits for it: a decision or answer already given, or a second stop, is nothing. */
export function applyWord(run: Run, word: Word): void {
  if (word.kind === "cancel") {
    run.cancel(word.by);
    return;
  }
  if (!run.awaits(word.callId, kindOf(word))) return;
  if (word.kind === "recover") {
    // A word for an earlier round of this call was for what it was then.
    if ((word.round ?? 0) !== (run.recoveryRounds.get(word.callId) ?? 0)) return;
    run.settle(word.callId, "recovery", { action: word.action, by: word.by, ...(word.text !== undefined ? { text: word.text } : {}) });
    return;
  }
  if (word.kind === "decide") run.settle(word.callId, "approval", { decision: word.decision, by: word.by, ...(word.note ? { note: word.note } : {}) });
  else run.settle(word.callId, "question", { answer: word.answer, by: word.by });
}
