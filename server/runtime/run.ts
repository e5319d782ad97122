// One run in memory while its loop is going: the conversation so far, the session's grants, the plan, the dedupe
// cache, the approvals and questions it waits on, and its secrets (resolved once per segment, server/calls/), whose
// values mask everything it stores or streams. Built fresh at start, or rebuilt from run_events (replay.ts) to continue.
import type { Db } from "@/db/client";
import type { McpPool } from "@/server/mcp/pool";
import type { RunStatus } from "@/db/schema";
import type { AgentDeclaration } from "@/server/agents/declaration";
import type { ModelSpec } from "@/server/models/open";
import { SegmentSecrets } from "@/server/calls";
import { hostFor, type Host } from "@/server/host";
import type { Masker } from "@/server/secrets/mask";
import type { RunCatalog, RunOperation } from "./catalog";
import type { EventLog, RunEvent } from "./events";
import { journalWriter, type StepResult } from "./journal-writer";
import { newLane, type SerialLane, type SpecialistRuntime } from "./specialist-link";
import type { ClientCall, Decision, EventData, Outcome, Person, RecoveryAction, RunEventType, StepKey, Todo } from "./shapes";
import { updateRun } from "./store";
import { nothingToDecide, type WaitKind } from "./waits";
import { RunStopped } from "./stopped";
import type { VoiceTiming } from "./voice";

/** What the model is told one call answered, kept for the next requests. */
export type ResultRecord = EventData["tool_result"] & { name: string };

export type Entry =
  | { kind: "user"; text: string; plan?: string }
  | { kind: "assistant"; text: string; calls: { callId: string; name: string; input: Record<string, unknown> }[] }
  | { kind: "results"; results: ResultRecord[]; plan?: string };

/** A call of the current turn, ready to run or already answered. */
export type PreparedCall = {
  callId: string;
  /** The name as the model wrote it. */
  called: string;
  /** The name the transcript keeps: the operation's, or the model's made acceptable to a provider. */
  name: string;
  op: RunOperation | null;
  args: Record<string, unknown> | null;
  /** Refused before anything could run: unknown name, withheld operation, bad arguments. */
  early: { outcome: Outcome; text: string } | null;
  /** Its step key in the run's journal (R-journal-key); none for a call a tool made while it ran. */
  step?: StepKey;
  /** A call a tree tool made through ctx.system while it ran: that call's id. */
  parent?: string;
  /** When the run resumes: what already happened to this call. */
  resumed?: {
    asked: WaitKind | null;
    approved: boolean;
    /** False when the call hook asked for this approval: "always" grants nothing beyond this call. */
    grantable?: boolean;
    started: boolean;
    result: ResultRecord | null;
    /** The result came from the journal only: its event was never stored, so it is stored now. */
    journaled?: boolean;
    /** How many times the person was asked about this call's unknown outcome (R-journal-manual). */
    rounds?: number;
  };
};

export type RuntimeSettings = {
  voice: VoiceTiming;
  /** Model requests retried after a rate limit or an unreachable provider, and the first wait between them. */
  modelRetries: number;
  modelRetryMs: number;
  /** Model requests per message before the run stops, so a model that never finishes cannot run forever. */
  maxSteps: number;
  /** Whether someone can answer ASK; without an approver ASK refuses (R-perm-ask-needs-approver). */
  canAsk: boolean;
  /** Pause before calling a safe or idempotent operation again after a transient failure. */
  retryMs: number;
  /** How old an answer of a module's check() a turn accepts (R-check-turn); 30 s unless a test makes it shorter. */
  checkMaxAgeS?: number;
  /** How long ask_user waits for an answer before answering that nobody did (R-ask-hour); its declared hour unless set. */
  askUserMs?: number;
  onStep?: (step: StepMetrics) => void;
};

export type StepMetrics = { runId: string; step: number; ms: number; modelMs: number; toolMs: number; calls: number };

export type { WaitKind };
type Waiter = { kind: WaitKind; promise: Promise<WaitAnswer>; resolve: (answer: WaitAnswer) => void; reject: (error: Error) => void };
export type WaitAnswer =
  | { decision: Decision; by: Person; note?: string }
  | { answer: string | null; by: Person }
  | { action: RecoveryAction; text?: string; by: Person };

export class Run {
  transcript: Entry[] = [];
  grants = new Set<string>();
  todos: Todo[] = [];
  dedupe = new Map<string, Promise<ResultRecord>>();
  /** The calls made so far, by id: ids stay unique across the run even when a provider repeats them. */
  callIds = new Set<string>();
  pendingTurn: PreparedCall[] | null = null;
  tokens = { input: 0, output: 0 };
  /** A client's system text, told after the agent's instructions (a run started from a whole conversation). */
  clientSystem: string | null = null;
  /** A client's one call of an operation, when that is all the run is (client-call.ts): no model is asked. */
  clientCall: ClientCall | null = null;
  steps = 0;
  /** The journal's step of the latest model turn (R-journal-key): counted again from the events when rebuilt. */
  journalStep = 0;
  /** Per call waiting on its unknown outcome: which round of asking it is (R-journal-manual). */
  recoveryRounds = new Map<string, number>();
  /** Where its one-at-a-time calls queue; a specialist's run shares its asker's (R-spec-serial). */
  lane: SerialLane = newLane();
  status: RunStatus = "running";
  /** The first event that could not be stored: the loop stops at its next step. */
  storageError: Error | null = null;
  /** Set when the studio stops this process's loops (shutdown): nothing more is written. */
  abandoned = false;
  readonly controller = new AbortController();
  private readonly waiters = new Map<string, Waiter>();
  /** Waits already settled: a rebuilt run may be given its word before its loop reaches the call (R-queue-word). */
  private readonly settled = new Map<string, Pick<Waiter, "kind" | "promise">>();
  /** The agent's model as this segment of the run resolved it (R-conn-resolve); null until the run begins or drives. */
  model: ModelSpec | null = null;
  private segmentSecrets: SegmentSecrets | null = null;
  private statusChain: Promise<void> = Promise.resolve();
  private treeHost: Host | null = null;

  constructor(
    readonly id: string,
    readonly agent: { id: string; name: string; version: number },
    readonly declaration: AgentDeclaration,
    readonly startedBy: string,
    public catalog: RunCatalog,
    readonly deps: { db: Db; log: EventLog; tree: string; dataDir: string; settings: RuntimeSettings; mcp?: McpPool; specialists?: SpecialistRuntime },
  ) {}

  /** The tree's tool host, looked up once per run; its work folder is under this runtime's data folder, not the default. */
  get host(): Host {
    return (this.treeHost ??= hostFor(this.deps.tree, { dataDir: this.deps.dataDir }));
  }

  /** The run's secrets: the model's key and its entries' `${NAME}` settings. */
  get secrets(): SegmentSecrets {
    return (this.segmentSecrets ??= new SegmentSecrets(this.deps.db, { actor: this.startedBy, run: this.id }));
  }

  /** Masks every secret value the run has given out. */
  get mask(): Masker {
    return this.secrets.mask;
  }

  /** Whether the built-in planning tools are offered: the system prompt's line and the plan on each request. */
  get planning(): boolean {
    return this.catalog.operations.some((op) => op.source === "system:planning" && op.name === "write_todos");
  }

  operation(name: string): RunOperation | undefined {
    return this.catalog.operations.find((op) => op.name === name);
  }

  /**
   * Store and stream one event, masked; a failed write is kept and ends the loop at its next step. `result`: the
   * journal result the event carries into its statement (R-journal-in-events).
   */
  emit<T extends RunEventType>(type: T, data: EventData[T], result?: StepResult): Promise<RunEvent | null> {
    if (this.abandoned) return Promise.resolve(null);
    return this.deps.log.append(this.id, type, this.masked(data), result ? { result } : {}).catch((err: Error) => {
      this.storageError ??= err;
      return null;
    });
  }

  /**
   * A call's tool_started with the call's journal row in the same statement (R-journal-with-event); resolves once both
   * are stored and throws when they could not be, since a call that waits for them must not be dispatched then
   * (R-journal-started). `waited`: false for a read-only call dispatched at once (R-journal-safe-at-once), whose
   * write then gathers with the events of the next few milliseconds instead of cutting the gathering short.
   */
  async emitStarted(data: EventData["tool_started"], step: StepKey, operation: string, waited = true): Promise<void> {
    if (this.abandoned) return;
    const row = { runId: this.id, key: step, callId: data.callId, operation, at: new Date() };
    await this.deps.log.append(this.id, "tool_started", this.masked(data), { step: row, urgent: waited }).catch((err: Error) => {
      this.storageError ??= err;
      throw err;
    });
  }

  private masked<T>(data: T): Record<string, unknown> {
    return this.mask.active ? this.mask.deep(data as Record<string, unknown>) : (data as Record<string, unknown>);
  }

  delta(text: string): void {
    if (!this.abandoned) this.deps.log.ephemeral(this.id, "delta", { text: this.mask(text) });
  }

  /**
   * Waits for every event emitted so far to be stored, and throws the write that failed, if one did: a run whose
   * record is incomplete must not end as done (the loop does not wait for each event's write).
   */
  async storedSoFar(): Promise<void> {
    await this.deps.log.flushed();
    if (this.storageError) throw this.storageError;
  }

  /** The run row's status and an event saying so, in the order they were asked for. */
  setStatus(status: RunStatus, error: string | null = null): Promise<void> {
    this.status = status;
    const ended = this.ending;
    this.statusChain = this.statusChain.then(async () => {
      // The events that led here, and the journal's writes, are stored before the row says so (a restart then finds them).
      await Promise.all([this.deps.log.flushed(), journalWriter(this.deps.db).flushed()]);
      if (this.abandoned) return;
      const masked = error === null ? null : this.mask(error);
      await updateRun(this.deps.db, this.id, {
        status,
        error: masked,
        tokensIn: this.tokens.input,
        tokensOut: this.tokens.output,
        endedAt: ended ? new Date() : null,
      });
      await this.emit("status", { status, error: masked });
    });
    return this.statusChain;
  }

  /** Wait for the person: an approval or an answer. The run shows as waiting while any wait is open. */
  wait(callId: string, kind: Waiter["kind"]): Promise<WaitAnswer> {
    // A stopped run opens no new wait: nobody would answer it.
    if (this.cancelled) return Promise.reject(new RunStopped("cancelled", this.cancelled.by));
    const existing = this.waiters.get(callId);
    if (existing) return existing.promise;
    const done = this.settled.get(callId);
    if (done?.kind === kind) return done.promise;
    let resolve!: (answer: WaitAnswer) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<WaitAnswer>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    // A wait abandoned at shutdown is nobody's error.
    promise.catch(() => undefined);
    this.waiters.set(callId, { kind, promise, resolve, reject });
    // Waiting on a person ends the segment: secrets are decrypted afresh when the run goes on.
    this.secrets.endSegment();
    if (this.status !== "waiting") void this.setStatus("waiting");
    return promise;
  }

  get waiting(): boolean {
    return this.waiters.size > 0;
  }

  /** Whether the run waits on the person for this call, for this kind of word. */
  awaits(callId: string, kind: Waiter["kind"]): boolean {
    return this.waiters.get(callId)?.kind === kind;
  }

  /** A decision or an answer for a call the run waits on; refused when it waits on nothing of that kind. */
  settle(callId: string, kind: Waiter["kind"], answer: WaitAnswer): void {
    const waiter = this.waiters.get(callId);
    if (!waiter || waiter.kind !== kind) throw nothingToDecide(this.id, callId, kind);
    this.waiters.delete(callId);
    this.settled.set(callId, { kind: waiter.kind, promise: waiter.promise });
    if (this.waiters.size === 0 && this.status === "waiting" && !this.abandoned) void this.setStatus("running");
    waiter.resolve(answer);
  }

  /** A new round of asking about this call (R-journal-manual): the word on the last round is not this one's. */
  forgetSettled(callId: string): void {
    this.settled.delete(callId);
  }

  /** Whether the run has been told its end (done, failed or cancelled): all that is left is writing it. */
  get ending(): boolean {
    return this.status === "done" || this.status === "failed" || this.status === "cancelled";
  }

  /** Stop without writing anything more (the process is going away; the run's rows stay as they are). */
  abandon(): void {
    this.abandoned = true;
    const stopping = new RunStopped("abandoned");
    this.controller.abort(stopping);
    for (const waiter of this.waiters.values()) waiter.reject(stopping);
    this.waiters.clear();
  }

  /** Who stopped the run, once someone has; the loop then ends it as cancelled (loop.ts). */
  cancelled: { by: Person } | null = null;

  /**
   * Stop the run for a person: a model request or a call in flight is aborted, and every open approval or question
   * ends unanswered. The loop gives each call cut short a result saying so, then ends the run. False when the run
   * was already stopped.
   */
  cancel(by: Person): boolean {
    if (this.cancelled || this.abandoned) return false;
    this.cancelled = { by };
    const stopped = new RunStopped("cancelled", by);
    this.controller.abort(stopped);
    for (const waiter of this.waiters.values()) waiter.reject(stopped);
    this.waiters.clear();
    return true;
  }
}
