// What ties a specialist's run to the run that asked it (R-spec-run): the parent's run and call, the queue its serial
// calls share with the parent (R-spec-serial), and what a run needs of the runtime to start, steer and follow the
// specialist's run (the Runtime is one). Types and the queue only, so the runtime's modules can all say them.
import type { RunEvent } from "./events";
import type { Decision, Person, RecoveryAction } from "./shapes";
import type { Via } from "./store";

/** Where the operations that run one at a time queue: one per run, shared by the run's specialists. */
export type SerialLane = { tail: Promise<unknown> };

export function newLane(): SerialLane {
  return { tail: Promise.resolve() };
}

export type ParentLink = { runId: string; callId: string; lane: SerialLane };

export type SpecialistRuntime = {
  start(input: { agentId: string; message: string; user: { id: string; name?: string | null }; via?: Via; parent?: ParentLink }): Promise<{ runId: string }>;
  decide(runId: string, callId: string, decision: Decision, user: Person, note?: string): Promise<unknown>;
  answer(runId: string, callId: string, answer: string | null, user: Person): Promise<unknown>;
  recover(runId: string, callId: string, action: RecoveryAction, user: Person, text?: string): Promise<unknown>;
  cancel(runId: string, user: Person): Promise<unknown>;
  subscribe(runId: string, lastEventId: string | null, signal: AbortSignal): Promise<AsyncGenerator<RunEvent>>;
  idle(runId: string): Promise<void>;
};
