// A specialist's task (R-spec-run): one ask_<agent> call starts a run of its own of the specialist, recorded as
// asked by this run and call, with the specialist's own catalog, settings, secrets, permissions and policy; what it
// does is mirrored into this run under the call's card, each of its calls under an id of its own
// (`<this call>/<its call>`), so its waits are this run's waits too (R-spec-approvals): a decision on either side
// reaches the specialist, and both traces say who gave it. This call's stop or bound stops the specialist's run
// (R-spec-stop, R-spec-timeout); only the specialist's reply, masked by its own run, comes back to the model.
import { CallTimeout, type SourceCall } from "@/server/calls";
import { DomainError } from "@/server/errors";
import { errorResult, type CallResult } from "@/server/host/protocol";
import { SpecialistMirror } from "./specialist-mirror";
import type { RunOperation } from "./catalog";
import type { Run } from "./run";
import type { Person } from "./shapes";
import { runRow } from "./store";

/** How long a stopped specialist's run may take to end before this call answers anyway. */
const STOP_GRACE_MS = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

function nameOf(declaration: Record<string, unknown>): string {
  return typeof declaration.name === "string" ? declaration.name : "an agent";
}

/**
 * The agents up this run's chain of askers, the first asker first, and how this run started (which its specialist's
 * run keeps: the key a program came through still reads).
 */
async function chainOf(run: Run) {
  const own = await runRow(run.deps.db, run.id);
  const chain = [{ agentId: run.agent.id, name: run.agent.name }];
  let parent = own.parentRunId;
  // Bounded: every step up is a run that was started by the one above it.
  for (let steps = 0; parent && steps < 100; steps++) {
    const row = await runRow(run.deps.db, parent);
    chain.unshift({ agentId: row.agentId, name: nameOf(row.declaration) });
    parent = row.parentRunId;
  }
  return { chain, via: { kind: "specialist" as const, keyId: own.viaKeyId ?? undefined, keyName: own.viaKeyName ?? undefined } };
}

/** Who a stop of this call stops the specialist's run as: the person who stopped this run, or this call's bound. */
function stopper(run: Run, reason: unknown): Person {
  if (run.cancelled) return run.cancelled.by;
  const what = reason instanceof CallTimeout ? `the ${reason.seconds}-second limit of the run that asked it` : "the run that asked it";
  return { id: run.startedBy, name: what };
}

export async function askSpecialist(run: Run, op: RunOperation, callId: string, message: string, call: SourceCall): Promise<CallResult> {
  const runtime = run.deps.specialists;
  if (!runtime) return errorResult(`${op.name} cannot ask its agent from here: only a run in the studio can start a specialist's run.`);
  const agentId = op.source.slice("agent:".length);
  const { chain, via } = await chainOf(run);
  // Saving refuses a loop (R-spec-cycle); two saves racing each other could still close one, so a run checks too.
  const at = chain.findIndex((link) => link.agentId === agentId);
  if (at !== -1) {
    const loop = [...chain.slice(at), chain[at]!].map((link) => link.name).join(" → ");
    return errorResult(`${op.name} was refused and did not run: asking it from here would make a loop of specialists (${loop}).`, "refused");
  }
  let childId: string;
  try {
    ({ runId: childId } = await runtime.start({
      agentId,
      message,
      user: { id: run.startedBy, name: `the agent “${run.agent.name}”` },
      via,
      parent: { runId: run.id, callId, lane: run.lane },
    }));
  } catch (err) {
    if (err instanceof DomainError) return errorResult(`${op.name} could not start its agent: ${err.message}`);
    throw err;
  }
  void run.emit("specialist", { callId, runId: childId, agentId });
  const mirror = new SpecialistMirror(run, callId, childId, call, runtime);
  const following = new AbortController();
  const ended = mirror.follow(await runtime.subscribe(childId, null, following.signal));
  const stopped = new Promise<"stopped">((resolve) => {
    if (call.signal.aborted) resolve("stopped");
    call.signal.addEventListener("abort", () => resolve("stopped"), { once: true });
  });
  try {
    const first = await Promise.race([ended, stopped]);
    if (first !== "stopped") return first;
    // A studio going away stops every loop itself and writes nothing more.
    if (!run.abandoned) {
      await runtime.cancel(childId, stopper(run, call.signal.reason)).catch(() => undefined);
      await Promise.race([ended, sleep(STOP_GRACE_MS)]);
    }
    throw call.signal.reason;
  } finally {
    following.abort();
    mirror.close();
  }
}
