// The runtime's face: start a run, continue it, stop it, decide an approval, answer a question, watch its events,
// and the loops this process drives. A run is driven by whichever process holds its job on the run queue
// (queue.ts, R-queue-job): starting or continuing one queues it, and the process that takes it builds the run from
// the database and drives it; the person's word is written first and applied by the holder (words.ts, R-queue-word).
// The list and trace of runs are queries.ts's. Edit when what a person can do to a run changes.
import type { Channel, Db } from "@/db/client";
import { mcpPool, type McpPool } from "@/server/mcp/pool";
import { begin, catalogFor, person, type PriorTurn, type Sources, type StartInput, type Who } from "./begin";
import type { RunCatalog } from "./catalog";
import { RunBus } from "./bus";
import { EventLog, type RunEvent } from "./events";
import { drive, endCancelled } from "./loop";
import { listWithWaits, runWithEvents, type ListedRun } from "./queries";
import { RunQueue, type RunJob } from "./queue";
import { clientCallOf } from "./client-call";
import { busy, ended, oneCall } from "./refusals";
import { startOf } from "./replay";
import { journalOf, type JournalRow } from "./journal";
import { freshRun, rebuildRun, rebuiltRun } from "./rebuild";
import type { Run, RuntimeSettings } from "./run";
import type { Decision, RecoveryAction } from "./shapes";
import type { ParentLink } from "./specialist-link";
import { agentForRun, insertRun, runRow, updateRun, type RunFilter, type RunRow, type RunSummary, type Via } from "./store";
import { STOPPED_BEFORE_START, unfinishedChildren, unfinishedRuns } from "./sweep";
import { RunTrees, treeVersionFor, type TreeChoice } from "./trees";
import { VOICE_TIMING } from "./voice";
import { WordDesk } from "./word-desk";
import { applyWord, clearWords, wordsOf } from "./words";

export type { PriorTurn, Who } from "./begin";

/** What this process does with runs (QUIVER_ROLE): `web` only queues them, `worker` and `all` drive them. */
export type Role = "all" | "web" | "worker";

export type RuntimeOptions = {
  db: Db;
  tree: string;
  dataDir: string;
  /** PostgreSQL's LISTEN/NOTIFY, where other studio processes may share the database (bus.ts). */
  channel?: Channel;
  /** The MCP servers' connections; the studio process's own pool by default. */
  mcp?: McpPool;
  /** Whether this process drives runs (R-queue-role); `all` by default. */
  role?: Role;
  /** How many runs this process drives at once; more wait on the queue for room here or elsewhere. */
  maxRuns?: number;
  /** The run queue's name: the studio's own unless tests sharing one database each want theirs. */
  queue?: string;
  /** Told how long each refresh of this process's leases took, and for how many runs (bench:takeover). */
  onLeaseRefresh?: (ms: number, runs: number) => void;
} & Partial<RuntimeSettings>;

/** A run this process holds: its Run once built, its loop, and the newest word on it applied here. */
type Held = { run: Run | null; loop: Promise<void>; lastWord: number; lost: boolean; queued: boolean };

/** How long a run started here waits to be taken before idle() stops waiting for it (another process took it). */
const TAKE_WAIT_MS = 30_000;
/** How often a process that drives runs looks for runs without a job (R-queue-sweep). */
const SWEEP_MS = 5 * 60_000;

export class Runtime {
  readonly log: EventLog;
  private readonly settings: RuntimeSettings;
  private readonly role: Role;
  /** The runs this process drives: those it holds on the queue, and specialists' runs driven beside their asker. */
  private readonly live = new Map<string, Held>();
  /** The person's words on runs, written and applied (R-queue-word). */
  private readonly words: WordDesk;
  /** The rows of runs started here and not yet taken, so taking one here reads nothing again. */
  private readonly starting = new Map<string, RunRow>();
  /** Runs started here and queued, not yet taken: idle() waits for them to be taken. */
  private readonly expected = new Map<string, { taken: Promise<void>; resolve: () => void }>();
  private readonly bus: RunBus | null;
  private opened: Promise<RunQueue<StartInput>> | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private closed = false;
  /** The tree each run uses, the working one or a published version on this process's disk (R-version-pinned). */
  private readonly trees: RunTrees;

  constructor(private readonly options: RuntimeOptions) {
    this.log = new EventLog(options.db);
    this.trees = new RunTrees(options.db, options.tree, options.dataDir);
    this.role = options.role ?? "all";
    this.bus = options.channel ? new RunBus(options.channel) : null;
    this.words = new WordDesk({ db: options.db, log: this.log, bus: this.bus, takes: this.role !== "web", held: (runId) => this.live.get(runId) });
    const bus = this.bus;
    if (bus) this.log.onStored = (runs) => bus.announce(runs);
    this.settings = {
      voice: options.voice ?? VOICE_TIMING,
      modelRetries: options.modelRetries ?? 2,
      modelRetryMs: options.modelRetryMs ?? 1_000,
      maxSteps: options.maxSteps ?? 50,
      canAsk: options.canAsk ?? true,
      retryMs: options.retryMs ?? 250,
      checkMaxAgeS: options.checkMaxAgeS,
      askUserMs: options.askUserMs,
      onStep: options.onStep,
    };
  }

  private get db(): Db {
    return this.options.db;
  }

  private get mcp(): McpPool {
    return this.options.mcp ?? mcpPool();
  }

  private get takes(): boolean {
    return this.role !== "web";
  }

  private deps(tree = this.options.tree) {
    return { db: this.db, log: this.log, tree, dataDir: this.options.dataDir, settings: this.settings, mcp: this.options.mcp, specialists: this };
  }

  /**
   * The run queue, opened on first use; in a process that drives runs, taking runs from then on (those waiting for
   * a holder first) and queueing the unfinished runs that have no job (R-queue-sweep).
   */
  private queue(): Promise<RunQueue<StartInput>> {
    this.opened ??= (async () => {
      await this.bus?.start({
        onEvents: (runs) => this.log.storedElsewhere(runs),
        onWord: (runId) => void this.words.apply([runId]),
        onTaken: (runId) => this.expected.get(runId)?.resolve(),
      });
      const queue = await RunQueue.open<StartInput>(this.db, { supervise: this.takes, name: this.options.queue });
      if (this.takes && !this.closed) {
        await this.sweep(queue);
        await queue.startTaking({
          take: (job, first) => this.hold(job, first),
          lost: (runId) => this.lose(runId),
          room: () => (this.options.maxRuns ?? 500) - this.live.size,
          refreshed: (runIds) => void this.words.apply(runIds),
          onRefresh: this.options.onLeaseRefresh,
        });
        this.sweeper = setInterval(() => void this.sweep(queue), SWEEP_MS);
        this.sweeper.unref();
      }
      return queue;
    })();
    return this.opened;
  }

  /** Start taking part: listen to the other processes and, where this process drives runs, take them. */
  async connect(): Promise<void> {
    await this.queue();
  }

  private async sweep(queue: RunQueue<StartInput>): Promise<void> {
    const ids = (await unfinishedRuns(this.db).catch(() => [])).filter((id) => !this.live.has(id));
    await queue.enqueueAll(ids).catch((err: Error) => console.error(`[quiver] queueing unfinished runs failed: ${err.message}`));
  }

  /** Queue the run, and where this process drives runs, look for it at once; idle() waits until it is taken. */
  private async enqueue(runId: string, start?: StartInput, row?: RunRow): Promise<void> {
    const queue = await this.queue();
    if (row && this.takes) this.starting.set(runId, row);
    if (this.takes && !this.expected.has(runId)) {
      let resolve!: () => void;
      const taken = new Promise<void>((r) => (resolve = r));
      const timer = setTimeout(resolve, TAKE_WAIT_MS);
      timer.unref();
      void taken.then(() => {
        clearTimeout(timer);
        this.expected.delete(runId);
        this.starting.delete(runId);
      });
      this.expected.set(runId, { taken, resolve });
    }
    // False when the run has a job already (a sweep queued it): whoever takes that job drives it.
    if (!(await queue.enqueue({ runId, ...(start ? { start } : {}) }))) this.expected.get(runId)?.resolve();
    if (this.takes) void queue.wake();
  }

  /**
   * A job this process took: the run built from the database (begun here when no process had begun it) and driven.
   * Its job is done when the loop ends, and given back when this process stops first.
   */
  private hold(job: RunJob<StartInput>, first: boolean): Promise<void> {
    const { runId } = job;
    void this.bus?.taken(runId);
    const held: Held = { run: null, loop: Promise.resolve(), lastWord: 0, lost: false, queued: true };
    const ready = (async () => {
      try {
        const built = await this.build(runId, first ? job.start : undefined, job.start);
        if (!built || held.lost) return null;
        held.run = built.run;
        // The words written before this process held the run: the stop first, then decisions the replay waits for.
        // A run nobody has begun has a word only if someone stopped it meanwhile, which this process heard of (or
        // the next lease refresh reads, R-queue-word): a new run's start costs no query here.
        if (!first || !job.start || this.words.heardOf(runId)) {
          for (const { id, word } of await wordsOf(this.db, runId)) {
            held.lastWord = id;
            applyWord(built.run, word);
          }
        }
        return built;
      } catch (err) {
        console.error(`[quiver] taking run ${runId} failed: ${(err as Error).message}`);
        return null;
      } finally {
        this.expected.get(runId)?.resolve();
      }
    })();
    held.loop = ready.then(async (built) => (built ? this.driven(built.run, built.before) : undefined)).finally(() => this.let(runId, held));
    this.live.set(runId, held);
    return ready.then(() => undefined);
  }

  /** The run of a job, ready to drive; null when it has ended (or never started and cannot now). */
  private async build(runId: string, fresh: StartInput | undefined, start?: StartInput): Promise<{ run: Run; before?: () => Promise<void> } | null> {
    // A run started here and taken here on its job's first attempt: its row is at hand, and it has no events yet.
    const row = (fresh && this.starting.get(runId)) || (await runRow(this.db, runId));
    this.starting.delete(runId);
    if (row.status !== "running" && row.status !== "waiting") return null;
    const tree = await this.treeOf(row);
    if (!tree) return null;
    if (fresh) {
      const run = this.fresh(row, tree);
      return { run, before: () => this.begin(run, fresh) };
    }
    const events = await this.log.stored(runId);
    if (startOf(events)) {
      const run = this.rebuilt(row, events, await journalOf(this.db, runId), tree);
      await this.stopChildren(runId);
      // A specialist's run waited for the call that asked it, which went with the old process (R-spec-stop).
      if (row.parentRunId) run.cancel({ id: run.startedBy, name: "the studio's restart" });
      return { run };
    }
    if (!start) {
      await updateRun(this.db, runId, { status: "failed", error: STOPPED_BEFORE_START, endedAt: new Date() });
      await this.log.append(runId, "status", { status: "failed", error: STOPPED_BEFORE_START });
      return null;
    }
    const run = this.fresh(row, tree);
    return { run, before: () => this.begin(run, start) };
  }

  /** The run's tree on this process's disk; null, the run failed with why, when its version cannot be had here. */
  private async treeOf(row: RunRow): Promise<string | null> {
    try {
      return await this.trees.of(row);
    } catch (err) {
      const error = `The run's tree (published version ${row.treeVersion}) could not be read here: ${(err as Error).message}`;
      await updateRun(this.db, row.id, { status: "failed", error, endedAt: new Date() });
      await this.log.append(row.id, "status", { status: "failed", error });
      return null;
    }
  }

  /** A specialist's run whose asker was taken over: its asking call answers that the studio restarted (R-spec-stop). */
  private async stopChildren(runId: string): Promise<void> {
    for (const childId of await unfinishedChildren(this.db, runId)) {
      if (this.live.has(childId)) continue;
      const child = await this.rebuild(childId).catch(() => null);
      if (!child) continue;
      child.cancel({ id: child.startedBy, name: "the studio's restart" });
      this.launch(child);
    }
  }

  /** The run's loop, as every run's: a failure to start fails it, a stop ends it cancelled. */
  private async driven(run: Run, before?: () => Promise<void>): Promise<void> {
    try {
      await before?.();
      await drive(run);
    } catch (err) {
      if (run.cancelled && !run.abandoned) await endCancelled(run).catch(() => undefined);
      else if (!run.abandoned) await run.setStatus("failed", `The run could not start: ${(err as Error).message}`).catch(() => undefined);
    }
  }

  /** The loop ended: its job done, or given back when this process stopped the run unfinished. */
  private async let(runId: string, held: Held): Promise<void> {
    if (this.live.get(runId) === held) this.live.delete(runId);
    if (!held.queued || held.lost || !this.opened) return;
    const queue = await this.opened;
    await this.log.flushed();
    if (held.run?.abandoned) return queue.release(runId);
    // An ended run's words were for what it was: the table keeps only those of unfinished runs.
    if (held.lastWord > 0 && held.run && held.run.status !== "running" && held.run.status !== "waiting") await clearWords(this.db, runId).catch(() => undefined);
    await queue.done(runId);
  }

  /** The lease lapsed under this process: another may hold the run now, so this one writes nothing more. */
  private lose(runId: string): void {
    const held = this.live.get(runId);
    if (!held) return;
    held.lost = true;
    held.run?.abandon();
  }

  /** A specialist's run, driven in its asker's process beside it (they share a lane, R-spec-serial), without a job. */
  private launch(run: Run, before?: () => Promise<void>): void {
    const held: Held = { run, loop: Promise.resolve(), lastWord: 0, lost: false, queued: false };
    held.loop = this.driven(run, before).finally(() => this.let(run.id, held));
    this.live.set(run.id, held);
  }

  /**
   * A new run of the agent as it stands, answering `message`; returns at once, and the process that takes its job
   * begins it. `prior` is the conversation before it, when a client sends one whole (kept as the run's first
   * messages); `system` is the client's own system text, told after the agent's instructions. `via` says how it
   * started (R-key-via): the playground unless told otherwise. `tree` is `working` only for a developer's playground
   * run; every other run uses the latest published version (R-version-pinned).
   */
  async start(input: { agentId: string; message: string; user: Who; prior?: PriorTurn[]; system?: string | null; via?: Via; parent?: ParentLink; tree?: TreeChoice }): Promise<{ runId: string }> {
    const row = await this.newRun(input.agentId, input.user, input.via, input.parent, input.tree);
    const start: StartInput = { kind: "message", message: input.message, user: input.user, prior: input.prior, system: input.system };
    if (input.parent) {
      const run = this.fresh(row, await this.trees.of(row));
      run.lane = input.parent.lane;
      this.launch(run, () => this.begin(run, start));
    } else await this.enqueue(row.id, start, row);
    return { runId: row.id };
  }

  /**
   * A run whose one step is a client's call of one of the agent's operations (R-api-mcp-call), as the model would
   * have made it: every rule of a model's call holds, and no model is asked. Returns at once with the run's id and
   * the call's id; the call's events tell how it goes.
   */
  async call(input: { agentId: string; name: string; args: Record<string, unknown>; user: Who; via?: Via }): Promise<{ runId: string; callId: string }> {
    const row = await this.newRun(input.agentId, input.user, input.via);
    const call = clientCallOf(input.name, input.args);
    await this.enqueue(row.id, { kind: "call", call, user: input.user }, row);
    return { runId: row.id, callId: call.callId };
  }

  /** The run's row, for the agent as it stands. */
  private async newRun(agentId: string, user: Who, via?: Via, parent?: ParentLink, tree: TreeChoice = "published"): Promise<RunRow> {
    const { declaration, version } = await agentForRun(this.db, agentId);
    const treeVersion = treeVersionFor(tree, parent?.runId);
    return insertRun(this.db, { agentId, agentVersion: version, declaration, startedBy: user.id, via, parent, treeVersion });
  }

  private fresh(row: RunRow, tree: string): Run {
    return freshRun(row, this.deps(tree));
  }

  /** What a run of the agent started now would offer the model, read as a run reads it, without starting one. */
  async offered(agentId: string): Promise<{ agent: { id: string; name: string; version: number }; catalog: RunCatalog }> {
    const { declaration, version } = await agentForRun(this.db, agentId);
    // As the runs it starts read it: the latest published version (R-version-working).
    return { agent: { id: agentId, name: declaration.name, version }, catalog: await catalogFor(this.sources(await this.trees.latest()), declaration) };
  }

  private sources(tree = this.options.tree): Sources {
    return { db: this.db, tree, mcp: this.mcp };
  }

  private begin(run: Run, start: StartInput): Promise<void> {
    return begin(this.sources(run.deps.tree), run, start);
  }

  private async rebuild(runId: string): Promise<Run> {
    const tree = await this.trees.of(await runRow(this.db, runId));
    return rebuildRun(this.db, this.log, runId, this.deps(tree));
  }

  private rebuilt(row: RunRow, events: RunEvent[], journal: JournalRow[], tree: string): Run {
    return rebuiltRun(row, events, this.deps(tree), journal);
  }

  /** Another message in the run's conversation, once it has finished its answer (or failed): stored, then queued. */
  async send(input: { runId: string; message: string; user: Who }): Promise<{ runId: string }> {
    const live = this.live.get(input.runId);
    if (live) throw busy(input.runId, live.run?.status ?? "running");
    const row = await runRow(this.db, input.runId);
    if (row.status === "running" || row.status === "waiting") throw busy(input.runId, row.status);
    const run = await this.rebuild(input.runId);
    if (run.clientCall) throw oneCall(input.runId);
    // Words on the run before it ended (a stop that came as it finished) are not for this message.
    await clearWords(this.db, input.runId);
    // The message is stored before the row says running, so whichever process takes the run finds it.
    void run.emit("message", { role: "user", text: input.message, by: person(input.user) });
    await run.storedSoFar();
    await run.setStatus("running");
    await this.enqueue(input.runId);
    return { runId: input.runId };
  }

  /** The run's Run where this process drives it. */
  private driving(runId: string): Run | null {
    return this.live.get(runId)?.run ?? null;
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
    const status = this.driving(runId)?.status ?? (await runRow(this.db, runId)).status;
    if (status !== "running" && status !== "waiting") throw ended(runId, status);
    await this.words.say(runId, { kind: "cancel", by: person(user) });
    return { runId };
  }

  /** The run's events after `lastEventId` (all of them without one), then live ones until the signal aborts. */
  async subscribe(runId: string, lastEventId?: string | null, signal?: AbortSignal): Promise<AsyncGenerator<RunEvent>> {
    await runRow(this.db, runId);
    // Events another process stores reach this one over the bus, heard once the queue is open.
    if (this.bus) await this.queue();
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
    await this.expected.get(runId)?.taken;
    await this.live.get(runId)?.loop;
    await this.log.flushed();
  }

  /** Whether the run's loop is going in this process. */
  isLive(runId: string): boolean {
    return this.live.has(runId);
  }

  /** The runs whose loops are going in this process. */
  liveRuns(): string[] {
    return [...this.live.keys()];
  }

  /**
   * Stop every loop of this process without writing anything more, as a process that goes away would; the runs it
   * held go back on the queue at once, for the next process to take.
   */
  async shutdown(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.trees.close();
    const queue = await this.opened?.catch(() => null);
    const loops = [...this.live.values()];
    for (const { run } of loops) run?.abandon();
    await Promise.allSettled(loops.map((l) => l.loop));
    for (const e of this.expected.values()) e.resolve();
    await this.log.flushed();
    await queue?.stop();
    await this.bus?.close();
  }
}
