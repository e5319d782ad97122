// A call whose outcome is unknown, and whose replay policy is `manual`, is never run again by itself
// (R-journal-manual): it was running when its studio process stopped, or it timed out (R-journal-timeout). The run
// waits for a person, the call's card saying it may have run, until they say: run it again, take this as its result,
// or fail it. Their word goes through run_words like any decision (R-queue-word), so whichever process holds the run
// applies it.
import type { PreparedCall, ResultRecord, Run } from "./run";
import { RunStopped } from "./stopped";

type Answer = Omit<ResultRecord, "callId" | "operation" | "name">;

export const MARKED_FAILED = "The person marked this call as failed";

export const STOPPED_UNKNOWN =
  "The person stopped the run while it waited to hear whether this call had run, so its outcome is unknown; check whether it took effect before calling it again.";

/**
 * Whether a call whose outcome is unknown waits for the person: a model's own `manual` call, when someone can answer.
 * A specialist's is not: its run was stopped with it (R-spec-stop, R-spec-timeout), so its outcome is known.
 */
export function waitsForPerson(run: Run, p: PreparedCall): boolean {
  return p.op?.replay === "manual" && p.op.kind !== "agent" && p.step !== undefined && run.deps.settings.canAsk;
}

/** Whether a timed-out call waits for the person rather than answer the timeout. */
export function recoversTimeout(run: Run, p: PreparedCall): boolean {
  return waitsForPerson(run, p) && !p.op!.interactive;
}

const answered = (outcome: Answer["outcome"], text: string): Answer => ({ outcome, text, images: [], truncated: null, durationMs: 0, attempts: 0, deduped: false });

/**
 * Ask the person about the call until they settle it: `again` runs it (and a run again that times out asks anew);
 * `done` answers the model their text as the call's result; `fail` answers it failed, with their reason.
 */
export async function recover(run: Run, p: PreparedCall, why: "restarted" | "timeout", again: () => Promise<Answer>): Promise<Answer> {
  const op = p.op!;
  // A rebuilt run that already asked waits on the same round; anything else asks a new one.
  let fresh = p.resumed?.asked !== "recovery";
  for (;;) {
    let round = run.recoveryRounds.get(p.callId) ?? 0;
    if (fresh) {
      round++;
      run.recoveryRounds.set(p.callId, round);
      run.forgetSettled(p.callId);
      await run.emit("recovery_requested", { callId: p.callId, operation: op.name, title: op.title, args: p.args ?? {}, why, round });
    }
    fresh = true;
    let answer;
    try {
      answer = await run.wait(p.callId, "recovery");
    } catch (err) {
      if (run.cancelled && !(err instanceof RunStopped && err.reason === "abandoned")) return answered("failed", STOPPED_UNKNOWN);
      throw err;
    }
    if (!("action" in answer)) throw new Error("a recovery was answered with another kind of word");
    await run.emit("recovery_decided", { callId: p.callId, action: answer.action, by: answer.by, round, ...(answer.text !== undefined ? { text: answer.text } : {}) });
    if (answer.action === "done") return answered("ok", answer.text ?? "");
    if (answer.action === "fail") return answered("failed", answer.text ? `${MARKED_FAILED}: ${answer.text}` : `${MARKED_FAILED}.`);
    const result = await again();
    if (result.outcome !== "timeout" || !recoversTimeout(run, p)) return result;
    why = "timeout";
  }
}

/** A result the journal kept whose event was never stored: stored now, as it was. */
export function storeKept(run: Run, result: ResultRecord): ResultRecord {
  const data: Omit<ResultRecord, "name"> & { name?: string } = { ...result };
  delete data.name;
  void run.emit("tool_result", data);
  return result;
}
