// Studio processes sharing one PostgreSQL (bus.ts): the person's word on a run another process drives is passed
// to that process, a word passed here is acted on when this process drives the run, and at start-up the runs
// another process still drives are told apart from those a stopped process left. Edit when the processes' agreement
// on who acts on a run changes; on PGlite there is one process and every answer here is "nobody else".
import type { Channel, Db } from "@/db/client";
import { DomainError, type ErrorKind } from "@/server/errors";
import { RunBus, type Action, type Reply } from "./bus";
import type { EventLog } from "./events";
import type { Run } from "./run";
import { runRow } from "./store";

export type { Action } from "./bus";

/** What the driving process answers for a word: null when done, or the error its runtime raised. */
type ControlError = Extract<Reply, { handled: true }>["error"];

/** What coordination must know of this process's own loops. */
export type LocalRuns = {
  /** Whether the run's loop is going in this process. */
  isLive(runId: string): boolean;
  /** Whether this process drives the run or is rebuilding it to drive it. */
  holds(runId: string): boolean;
  /** The run this process drives, once a rebuild under way has finished; undefined when it drives none. */
  driving(runId: string): Promise<Run | undefined>;
};

export class Coordination {
  private readonly bus: RunBus | null;

  constructor(
    channel: Channel | undefined,
    private readonly db: Db,
    private readonly log: EventLog,
    private readonly local: LocalRuns,
  ) {
    this.bus = channel ? new RunBus(channel) : null;
    const bus = this.bus;
    if (bus) log.onStored = (runs) => bus.announce(runs);
  }

  /** Listen to the other processes: events they stored reach this process's watchers, their words its runs. */
  async connect(): Promise<void> {
    await this.bus?.start({
      onEvents: (runs) => this.log.storedElsewhere(runs),
      onControl: (runId, action) => this.control(runId, action),
    });
  }

  /**
   * The person's word on a run this process is not driving, passed to the process that is: true when one took it
   * (its error rethrown here), false when none drives it and this process should act itself.
   */
  async passedOn(runId: string, action: Action): Promise<boolean> {
    if (!this.bus || this.local.holds(runId)) return false;
    const row = await runRow(this.db, runId);
    if (row.status !== "running" && row.status !== "waiting") return false;
    const reply = await this.bus.ask(runId, action);
    // No reply in time: unless the word was acted on after all (a slow reply), no process drives the run.
    if (!reply.handled) return this.actedOn(runId, action);
    if (reply.error) throw new DomainError(reply.error.kind as ErrorKind, reply.error.reason, reply.error.message, reply.error.details);
    return true;
  }

  /** Whether the run's stored events show the word acted on already (by a process whose reply came late). */
  private async actedOn(runId: string, action: Action): Promise<boolean> {
    if (action.kind === "ping") return false;
    if (action.kind === "cancel") return (await runRow(this.db, runId)).status === "cancelled";
    const events = await this.log.stored(runId, 0, [action.kind === "decide" ? "approval_decided" : "question_answered"]);
    return events.some((e) => e.data.callId === action.callId);
  }

  /** Another process passes on the person's word: acted on when this process drives the run, else left alone. */
  private async control(runId: string, action: Action): Promise<ControlError | undefined> {
    const run = await this.local.driving(runId);
    if (!run || run.abandoned) return undefined;
    try {
      if (action.kind === "decide") run.settle(action.callId, "approval", { decision: action.decision, by: action.by });
      else if (action.kind === "answer") run.settle(action.callId, "question", { answer: action.answer, by: action.by });
      else if (action.kind === "cancel") run.cancel(action.by);
      return null;
    } catch (err) {
      if (err instanceof DomainError) return { kind: err.kind, reason: err.reason, message: err.message, details: err.details };
      throw err;
    }
  }

  /** Of these runs, the ones no other studio process answers for (all of them on PGlite). */
  async leftOver(ids: string[]): Promise<string[]> {
    const bus = this.bus;
    if (!bus) return ids;
    const driven = await Promise.all(ids.map(async (id) => !this.local.isLive(id) && (await bus.ask(id, { kind: "ping" })).handled));
    return ids.filter((_, i) => !driven[i]);
  }

  async close(): Promise<void> {
    await this.bus?.close();
  }
}
