// A run whose one step is a client's call of one of the agent's operations (an MCP client's tools/call,
// R-api-mcp-call): the call is prepared, recorded and run through dispatch exactly as a model's call is (its name
// matched, its arguments checked, permission, call hook, bound, settings and secrets, masking, audit), and no model
// is asked before or after it. Edit when such a run's shape changes.
import { prepare, recordCall, runTurn } from "./dispatch";
import { keyCalls } from "./journal";
import type { Run } from "./run";
import type { ClientCall } from "./shapes";
import { RunStopped } from "./stopped";

/** The id of the one call of such a run: what a decision on it names (the runs API, the studio). */
export const CLIENT_CALL_ID = "call_1";

export function clientCallOf(name: string, args: Record<string, unknown>): ClientCall {
  return { callId: CLIENT_CALL_ID, name, input: JSON.stringify(args) };
}

/** The client's call as the run's only turn, recorded before anything of it runs. */
export function openClientCall(run: Run, call: ClientCall): void {
  const prepared = prepare(run, call);
  // The run's one step (R-journal-key).
  run.journalStep = 1;
  keyCalls(run, [prepared]);
  void recordCall(run, prepared);
  run.pendingTurn = [prepared];
}

/** Runs the turn (fresh, or rebuilt after a restart) and ends the run: done once the call has its answer. */
export async function driveClientCall(run: Run): Promise<void> {
  if (run.pendingTurn) {
    const results = await runTurn(run, run.pendingTurn);
    run.pendingTurn = null;
    run.transcript.push({ kind: "results", results });
  }
  // A stop ends it as the loop ends any stopped run; a failed write as any run whose events could not be stored.
  if (run.cancelled) throw new RunStopped("cancelled", run.cancelled.by);
  await run.storedSoFar();
  await run.setStatus("done");
}
