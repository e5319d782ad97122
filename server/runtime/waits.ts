// What a run can wait on the person for, and the refusal when a word comes for a wait that is not open. Apart from
// run.ts and words.ts, which both need them, so neither imports the other.
import { DomainError } from "@/server/errors";

/** What a wait on the person is for: an approval, an answer, or a call that may have run (R-journal-manual). */
export type WaitKind = "approval" | "question" | "recovery";

const NOTHING: Record<WaitKind, [string, string]> = {
  approval: ["NO_APPROVAL_WAITING", "This call is not waiting for approval; it may have been decided already."],
  question: ["NO_QUESTION_WAITING", "This call is not waiting for an answer; it may have been answered already."],
  recovery: ["NO_RECOVERY_WAITING", "This call is not waiting for a person to say whether it ran; it may have been settled already."],
};

export function nothingToDecide(runId: string, callId: string, kind: WaitKind): DomainError {
  return new DomainError("CONFLICT", NOTHING[kind][0], NOTHING[kind][1], { runId, callId });
}
