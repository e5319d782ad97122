// The runtime's face: start a run, continue it, stop it, decide an approval, answer a question, watch its events.
// A run is driven by whichever process holds its job on the run queue (R-queue-job): starting or continuing one
// queues it (taking.ts), and the process that takes it builds the run from the database (taken-run.ts) and drives it
// (holding.ts); the person's word is written first and applied by the holder (word-desk.ts, R-queue-word). Runs are
// made by run-maker.ts; the list and trace of runs are queries.ts's. Edit when what a person can do to a run changes.
import type { Db } from "@/db/client";
import { person, type PriorTurn, type StartInput, type Who } from "./begin";
import type { RunCatalog } from "./catalog";
import { RunBus } from "./bus";
import { clientCallOf } from "./client-call";
import { EventLog, type RunEvent } from "./events";
import { Holding } from "./holding";
import { listWithWaits, runWithEvents, type ListedRun } from "./queries";
import { RUN_QUEUE } from "./queue";
import { busy, ended, oneCall } from "./refusals";
import type { Run } from "./run";
import { RunMaker } from "./run-maker";
import { MAX_RUNS, settingsOf, type Role, type RuntimeOptions } from "./runtime-options";
import type { Decision, RecoveryAction } from "./shapes";
import type { ParentLink } from "./specialist-link";
import { runRow, type RunFilter, type RunSummary, type Via } from "./store";
import { takenRun } from "./taken-run";
import { Taking } from "./taking";
import { RunTrees, type TreeChoice } from "./trees";
import { WordDesk } from "./word-desk";
import { clearWords } from "./words";
import { flushTraces, tracingOn } from "@/server/telemetry";

export type { PriorTurn, Who } from "./begin";
export type { Role, RuntimeOptions } from "./runtime-options";

export class Runtime {
  readonly log: EventLog;
  private readonly role: Role;
  /** The runs this process drives: those it holds on the queue, and specialists' runs driven beside their asker. */
  private readonly holding: Holding;
  /** The person's words on runs, written and applied (R-queue-word). */
  private readonly words: WordDesk;
  /** This process's part of the run queue. */
  private readonly taking: Taking;
  private readonly bus: RunBus | null;
  /** The tree each run uses, the working one or a published version on this process's disk (R-version-pinned). */
  private readonly trees: RunTrees;
  private readonly maker: RunMaker;

  constructor(private readonly options: RuntimeOptions) {
    const { db } = options;
    this.log = new EventLog(db);
    this.trees = new RunTrees(db, options.tree, options.dataDir);
    this.role = options.role ?? "all";
    const takes = this.role !== "web";
    this.bus = options.channel ? new RunBus(options.channel) : null;
    const bus = this.bus;
    if (bus) this.log.onStored = (runs) => bus.announce(runs);
    const settings = settingsOf(options);
    const { maxRuns = MAX_RUNS, queue: name = RUN_QUEUE, onLeaseRefresh } = options;
    this.maker = new RunMaker({ db, log: this.log, trees: this.trees, tree: options.tree, dataDir: options.dataDir, settings, mcp: options.mcp, specialists: this, queue: name });
    this.holding = new Holding({
      db,
      log: this.log,
      bus,
      build: (runId, fresh, start) => takenRun(this.takenParts(), runId, fresh, start),
      heardOf: (runId) => this.words.heardOf(runId),
      taken: (runId) => this.taking.taken(runId),
      queue: () => this.taking.current,
    });
    this.words = new WordDesk({ db, log: this.log, bus, takes, held: (runId) => this.holding.held(runId) });
    this.taking = new Taking({ db, log: this.log, bus, words: this.words, holding: this.holding, takes, maxRuns, name, onLeaseRefresh });
  }

  private get db(): Db {
    return this.options.db;
  }

  private takenParts() {
    return {
      db: this.db,
      log: this.log,
      trees: this.trees,
      maker: this.maker,
      startedHere: (runId: string) => this.taking.startedHere(runId),
      drives: (runId: string) => this.isLive(runId),
      launch: (run: Run) => this.holding.launch(run),
    };
  }

  /** Start taking part: listen to the other processes and, where this process drives runs, take them. */
  async connect(): Promise<void> {
    await this.taking.queue();
  }

  /**
   * A new run of the agent as it stands, answering `message`; returns at once, and the process that takes its job
   * begins it. `prior` is the conversation before it, when a client sends one whole (kept as the run's first
   * messages); `system` is the client's own system text, told after the agent's instructions. `via` says how it
   * started (R-key-via): the playground unless told otherwise. `tree` is `working` only for a developer's playground
   * run; every other run uses the latest published version (R-version-pinned).
   */
  async start(input: { agentId: string; message: string; user: Who; prior?: PriorTurn[]; system?: string | null; via?: Via; parent?: ParentLink; tree?: TreeChoice }): Promise<{ runId: string }> {
    const row = await this.maker.newRun(input.agentId, input.user, input.via, input.parent, input.tree);
    const start: StartInput = { kind: "message", message: input.message, user: input.user, prior: input.prior, system: input.system };
    if (input.parent) {
      const run = this.maker.fresh(row, await this.trees.of(row));
      run.lane = input.parent.lane;
      this.holding.launch(run, () => this.maker.begin(run, start));
    } else await this.taking.enqueue(row.id, start, row);
    return { runId: row.id };
  }

  /**
   * A run whose one step is a client's call of one of the agent's operations (R-api-mcp-call), as the model would
   * have made it: every rule of a model's call holds, and no model is asked. Returns at once with the run's id and
   * the call's id; the call's events tell how it goes.
   */
  async call(input: { agentId: string; name: string; args: Record<string, unknown>; user: Who; via?: Via }): Promise<{ runId: string; callId: string }> {
    const row = await this.maker.newRun(input.agentId, input.user, input.via);
    const call = clientCallOf(input.name, input.args);
    await this.taking.enqueue(row.id, { kind: "call", call, user: input.user }, row);
    return { runId: row.id, callId: call.callId };
  }

  /** What a run of the agent started now would offer the model, read as a run reads it, without starting one. */
  offered(agentId: string): Promise<{ agent: { id: string; name: string; version: number }; catalog: RunCatalog }> {
    return this.maker.offered(agentId);
  }

  /** Another message in the run's conversation, once it has finished its answer (or failed): stored, then queued. */
  async send(input: { runId: string; message: string; user: Who }): Promise<{ runId: string }> {
    const live = this.holding.held(input.runId);
    if (live) throw busy(input.runId, live.run?.status ?? "running");
    const row = await runRow(this.db, input.runId);
    if (row.status === "running" || row.status === "waiting") throw busy(input.runId, row.status);
    const run = await this.maker.rebuild(input.runId);
    if (run.clientCall) throw oneCall(input.runId);
    // Words on the run before it ended (a stop that came as it finished) are not for this message.
    await clearWords(this.db, input.runId);
    // The message is stored before the row says running, so whichever process takes the run finds it.
    void run.emit("message", { role: "user", text: input.message, by: person(input.user) });
    await run.storedSoFar();
    await run.setStatus("running");
    await this.taking.enqueue(input.runId);
    return { runId: input.runId };
  }

  /** The person's decision on a call waiting for approval: once, always in this run, or deny; `note`, beside a plan's (R-tool-io-cards). */
  async decide(runId: string, callId: string, decision: Decision, user: Who, note?: string): Promise<{ runId: string; callId: string; decision: Decision }> {
    await this.words.say(runId, { kind: "decide", callId, decision, by: person(user), ...(note ? { note } : {}) });
    return { runId, callId, decision };
  }

  /**
   * The person's word on a call that may have run (R-journal-manual): run it again, take `text` as its result, or fail
   * it (`text`: why).
   */
  async recover(runId: string, callId: string, action: RecoveryAction, user: Who, text?: string): Promise<{ runId: string; callId: string; action: RecoveryAction }> {
    await this.words.say(runId, { kind: "recover", callId, action, by: person(user), ...(text !== undefined ? { text } : {}) });
    return { runId, callId, action };
  }

  /** The person's reply to ask_user; null when they would rather not answer. */
  async answer(runId: string, callId: string, answer: string | null, user: Who): Promise<{ runId: string; callId: string }> {
    await this.words.say(runId, { kind: "answer", callId, answer, by: person(user) });
    return { runId, callId };
  }

  /**
   * Stop a run for the person: where it is going it stops where it is, and its loop ends it; a run that has ended
   * cannot be stopped.
   */
  async cancel(runId: string, user: Who): Promise<{ runId: string }> {
    const status = this.holding.held(runId)?.run?.status ?? (await runRow(this.db, runId)).status;
    if (status !== "running" && status !== "waiting") throw ended(runId, status);
    await this.words.say(runId, { kind: "cancel", by: person(user) });
    return { runId };
  }

  /** The run's events after `lastEventId` (all of them without one), then live ones until the signal aborts. */
  async subscribe(runId: string, lastEventId?: string | null, signal?: AbortSignal): Promise<AsyncGenerator<RunEvent>> {
    await runRow(this.db, runId);
    // Events another process stores reach this one over the bus, heard once the queue is open.
    if (this.bus) await this.taking.queue();
    return this.log.subscribe(runId, lastEventId, signal);
  }

  /** Newest first; a waiting run says what it waits on, so the list can ask for an approval or an answer. */
  list(filter: RunFilter = {}): Promise<ListedRun[]> {
    return listWithWaits(this.db, filter);
  }

  get(runId: string): Promise<{ run: RunSummary; events: RunEvent[] }> {
    return runWithEvents(this.db, this.log, runId);
  }

  /** Resolves when the run's loop in this process stops (a run queued here first waits to be taken). */
  async idle(runId: string): Promise<void> {
    await this.taking.whenTaken(runId);
    await this.holding.held(runId)?.loop;
    await this.log.flushed();
  }

  /** Whether the run's loop is going in this process. */
  isLive(runId: string): boolean {
    return this.holding.held(runId) !== undefined;
  }

  /** The runs whose loops are going in this process. */
  liveRuns(): string[] {
    return this.holding.ids();
  }

  /**
   * Stop every loop of this process without writing anything more, as a process that goes away would; the runs it
   * held go back on the queue at once, for the next process to take.
   */
  async shutdown(): Promise<void> {
    this.taking.close();
    this.trees.close();
    const queue = await this.taking.current?.catch(() => null);
    // Nothing more is taken before the runs are given back, so none of them is taken again here (R-queue-lease).
    await queue?.stopTaking();
    await this.holding.abandonAll();
    this.taking.endWaits();
    await this.log.flushed();
    if (tracingOn()) await flushTraces();
    await queue?.stop();
    await this.bus?.close();
  }
}
