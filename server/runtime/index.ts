// The runtime as the rest of the studio uses it: the one Runtime of this process over the studio's database and
// tree, taking its part of the run queue on first use (as QUIVER_ROLE says, R-queue-role), and the functions the
// tRPC router calls. Kept on globalThis so a reload in `next dev` does not orphan running loops.
import { startDatabase } from "@/server/db";
import { env } from "@/server/env";
import { Runtime, type Who } from "./runtime";
import type { Decision } from "./shapes";

export { Runtime, type PriorTurn, type RuntimeOptions, type Who } from "./runtime";
export { LEASE_SECONDS } from "./queue";
export type { ListedRun, WaitingFor } from "./queries";
export type { RunEvent } from "./events";
export type { EventData, RunEventType, Decision, Outcome, RecoveryAction, Todo } from "./shapes";
export type { RunSummary, Via } from "./store";

const holder = globalThis as typeof globalThis & { __quiverRuntime?: Promise<Runtime> };

/** The studio's runtime; the first call recovers what a previous process left. */
export function studioRuntime(): Promise<Runtime> {
  holder.__quiverRuntime ??= (async () => {
    const { toolsDir, dataDir, role, runQueue, maxRuns } = env();
    const database = await startDatabase();
    const runtime = new Runtime({ db: database.db, channel: database.channel, tree: toolsDir, dataDir, role, queue: runQueue, maxRuns });
    await runtime.connect();
    return runtime;
  })().catch((err: unknown) => {
    holder.__quiverRuntime = undefined;
    throw err;
  });
  return holder.__quiverRuntime;
}

/** At SIGTERM: this process's runs stop without a word, their jobs given back for the next process (R-queue-lease). */
export async function stopStudioRuntime(): Promise<void> {
  const runtime = await holder.__quiverRuntime?.catch(() => null);
  await runtime?.shutdown();
}

/** A decision on a call waiting for approval: approve once, always in this run, or deny. */
export async function decide(runId: string, callId: string, decision: Decision, user: Who) {
  return (await studioRuntime()).decide(runId, callId, decision, user);
}

/** The reply to an ask_user question, or null for none. */
export async function answer(runId: string, callId: string, reply: string | null, user: Who) {
  return (await studioRuntime()).answer(runId, callId, reply, user);
}

/** The run's events from after `lastEventId`, then live ones. */
export async function subscribe(runId: string, lastEventId?: string | null, signal?: AbortSignal) {
  return (await studioRuntime()).subscribe(runId, lastEventId, signal);
}
