// This process's part of the run queue (R-queue-job): opened on first use, the bus heard from then on; in a process
// that drives runs, taking jobs as it has room (R-queue-lease) and queueing the unfinished runs that have no job, at
// start-up and every few minutes (R-queue-sweep). A run started here is queued and, where this process drives runs,
// looked for at once; idle() waits until it is taken, here or elsewhere. Edit when how a process takes part in the
// queue changes.
import type { Db } from "@/db/client";
import type { StartInput } from "./begin";
import type { RunBus } from "./bus";
import type { EventLog } from "./events";
import type { Holding } from "./holding";
import { RunQueue } from "./queue";
import type { RunRow } from "./store";
import { unfinishedRuns } from "./sweep";
import type { WordDesk } from "./word-desk";

/** How long a run started here waits to be taken before idle() stops waiting for it (another process took it). */
const TAKE_WAIT_MS = 30_000;
/** How often a process that drives runs looks for runs without a job (R-queue-sweep). */
const SWEEP_MS = 5 * 60_000;

export type TakingParts = {
  db: Db;
  log: EventLog;
  bus: RunBus | null;
  words: WordDesk;
  holding: Holding;
  /** Whether this process drives runs (R-queue-role). */
  takes: boolean;
  /** How many runs this process drives at once. */
  maxRuns: number;
  /** The queue's name. */
  name: string;
  onLeaseRefresh?: (ms: number, runs: number) => void;
};

export class Taking {
  private opened: Promise<RunQueue<StartInput>> | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private closed = false;
  /** The rows of runs started here and not yet taken, so taking one here reads nothing again. */
  private readonly starting = new Map<string, RunRow>();
  /** Runs started here and queued, not yet taken: idle() waits for them to be taken. */
  private readonly expected = new Map<string, { taken: Promise<void>; resolve: () => void }>();

  constructor(private readonly c: TakingParts) {}

  /** The queue if it has been opened. */
  get current(): Promise<RunQueue<StartInput>> | null {
    return this.opened;
  }

  /**
   * The run queue, opened on first use; in a process that drives runs, taking runs from then on (those waiting for
   * a holder first) and queueing the unfinished runs that have no job (R-queue-sweep).
   */
  queue(): Promise<RunQueue<StartInput>> {
    const { c } = this;
    this.opened ??= (async () => {
      await c.bus?.start({
        onEvents: (runs) => c.log.storedElsewhere(runs),
        onWord: (runId) => void c.words.apply([runId]),
        onTaken: (runId) => this.taken(runId),
      });
      const queue = await RunQueue.open<StartInput>(c.db, { supervise: c.takes, name: c.name });
      if (c.takes && !this.closed) {
        await this.sweep(queue);
        await queue.startTaking({
          take: (job, first) => c.holding.hold(job, first),
          lost: (runId) => c.holding.lose(runId),
          room: () => c.maxRuns - c.holding.size,
          refreshed: (runIds) => void c.words.apply(runIds),
          onRefresh: c.onLeaseRefresh,
        });
        this.sweeper = setInterval(() => void this.sweep(queue), SWEEP_MS);
        this.sweeper.unref();
      }
      return queue;
    })();
    return this.opened;
  }

  private async sweep(queue: RunQueue<StartInput>): Promise<void> {
    const ids = (await unfinishedRuns(this.c.db, this.c.name).catch(() => [])).filter((id) => !this.c.holding.held(id));
    await queue.enqueueAll(ids).catch((err: Error) => console.error(`[quiver] queueing unfinished runs failed: ${err.message}`));
  }

  /** Queue the run, and where this process drives runs, look for it at once; idle() waits until it is taken. */
  async enqueue(runId: string, start?: StartInput, row?: RunRow): Promise<void> {
    const queue = await this.queue();
    if (row && this.c.takes) this.starting.set(runId, row);
    if (this.c.takes && !this.expected.has(runId)) {
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
    if (!(await queue.enqueue({ runId, ...(start ? { start } : {}) }))) this.taken(runId);
    if (this.c.takes) void queue.wake();
  }

  /** The row of a run started here and not yet taken, handed over once. */
  startedHere(runId: string): RunRow | undefined {
    const row = this.starting.get(runId);
    this.starting.delete(runId);
    return row;
  }

  /** The run was taken (here, or another process said so): idle() stops waiting for it. */
  taken(runId: string): void {
    this.expected.get(runId)?.resolve();
  }

  /** Resolves once the run started here has been taken; at once for any other. */
  async whenTaken(runId: string): Promise<void> {
    await this.expected.get(runId)?.taken;
  }

  /** No more sweeps or takes start. */
  close(): void {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /** Whoever waits for a run to be taken stops waiting (this process is going away). */
  endWaits(): void {
    for (const e of this.expected.values()) e.resolve();
  }
}
