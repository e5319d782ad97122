// Runs driven as pg-boss jobs (R-queue-job): one job per run, on a queue whose policy lets a run have one job queued
// or active at a time. A process takes jobs as it has room and holds each run under a heartbeat lease, refreshed for
// all its runs in one statement; a holder that dies stops refreshing, pg-boss's supervisor fails the job once the
// lease lapses, and the next process that asks takes it (R-queue-lease). On the embedded database pg-boss runs over
// the same PGlite through its PGlite backend, in the one process. Edit when what a run's job is or how long a lease
// lasts changes; what a taken run does is holding.ts's.
import { randomUUID } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import type { Pool } from "pg";
import { PgBoss, fromPglite, type ConstructorOptions, type Db as IDatabase, type Job } from "pg-boss";
import type { Db } from "@/db/client";
import { readQueueDepthWith } from "@/server/metrics/studio";
import { Gathering } from "./gathering";

/** The queue every process of a studio shares (QUIVER_RUN_QUEUE names another, for tests sharing one database). */
export const RUN_QUEUE = "quiver-runs";
/** A holder silent this long has lost its runs: pg-boss's shortest heartbeat (R-ops-pgboss-heartbeat). */
export const LEASE_SECONDS = 10;
/** How often a holder refreshes its leases (well inside the lease, so one slow refresh loses nothing). */
const REFRESH_MS = 3_000;
/** How often an idle process asks for jobs; starting a run in this process asks at once. */
const POLL_MS = 1_000;
/** How often pg-boss's supervisor looks for lapsed leases; its default minute would outlast the lease (R-ops-pgboss-heartbeat). */
const SUPERVISE_SECONDS = 2;
/** Jobs taken in one fetch. */
const BATCH = 20;
/** A run whose holders died this many times in a row is left to the start-up sweep (R-queue-sweep). */
const RETRIES = 50;

/** What a job carries: the run, and for a run that has not begun, what it starts with (R-queue-start). */
export type RunJob<Start = unknown> = { runId: string; start?: Start };

/** What the queue needs of the runtime that drives the runs it takes. */
export type Taker<Start> = {
  /**
   * This process now holds the run: drive it, then call done() or release(); resolves once the run is ready to drive.
   * `first`: no process held this job before, so a run that carries its start has not begun.
   */
  take(job: RunJob<Start>, first: boolean): Promise<void>;
  /** The lease lapsed while this process still drove the run (it was paused or cut off): stop without writing. */
  lost(runId: string): void;
  /** How many more runs this process can drive now. */
  room(): number;
  /** Each refresh: the runs held here, so a word whose wake-up was missed is still applied (R-queue-word). */
  refreshed?(runIds: string[]): void;
  /** How long each refresh took and for how many runs (the takeover benchmark's cost of the lease). */
  onRefresh?(ms: number, runs: number): void;
};

/** A job held here: its attempt, and when its heartbeat was last known to be fresh (taken, or refreshed). */
type Held = { id: string; retryCount: number; at: number };

/**
 * A lease older than this may have lapsed by the time a refresh reaches the database: a process that was paused (a
 * stopped VM, a stalled event loop) stops those runs at once, before anything it resumes can write for them.
 */
const STALE_MS = LEASE_SECONDS * 1000 - 2 * REFRESH_MS / 3;

/** pg-boss over the studio's own connection: PGlite through its backend, PostgreSQL through the studio's pool (R-ops-pgboss-pglite). */
export function adapter(db: Db): { db: IDatabase; backend: ConstructorOptions["backend"] } {
  const client = (db as unknown as { $client: PGlite | Pool }).$client;
  if ("exec" in client && typeof client.exec === "function") return { db: fromPglite(client), backend: "pglite" };
  const pool = client as Pool;
  return {
    backend: "postgres",
    db: {
      // A statement with no parameters may be several (pg-boss's locked blocks): their rows are read together.
      async executeSql(text: string, values?: unknown[]) {
        const result = (await pool.query(text, values)) as unknown as { rows: unknown[] } | { rows: unknown[] }[];
        return Array.isArray(result) ? { rows: result.flatMap((r) => r.rows ?? []) } : result;
      },
    },
  };
}

export class RunQueue<Start = unknown> {
  private readonly held = new Map<string, Held>();
  private taker: Taker<Start> | null = null;
  private poll: NodeJS.Timeout | null = null;
  private refresh: NodeJS.Timeout | null = null;
  private passing: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Set by stopTaking(): no look for jobs starts any more. */
  private closing = false;
  /** /api/metrics reads this queue's depth from pg-boss's counts while it is open (R-metrics-names). */
  private readonly forgetDepth: () => void;
  /**
   * Jobs sent in one statement (R-ops-db-gathered), each with an id of its own: the ids that come back are the jobs the
   * policy let in, as send() answered null for one it kept out.
   */
  private readonly sending = new Gathering<{ id: string; data: RunJob<Start>; singletonKey: string }, boolean>(async (jobs) => {
    const ids = new Set((await this.boss.insert(this.name, jobs, { returnId: true })) ?? []);
    return (job) => ids.has(job.id);
  });
  /** Jobs completed in one statement (R-ops-db-gathered), each only in the attempt this process holds. */
  private readonly completing = new Gathering<{ id: string; retryCount: number }, void>(async (attempts) => {
    await this.boss.complete(this.name, attempts);
    return () => undefined;
  });

  private constructor(
    private readonly boss: PgBoss,
    private readonly name: string,
  ) {
    this.forgetDepth = readQueueDepthWith(async () => ({ queue: name, waiting: (await boss.getQueue(name))?.queuedCount ?? 0 }));
  }

  /** pg-boss started on the studio's database and the run queue made; `supervise` where this process takes runs. */
  static async open<Start>(db: Db, options: { supervise: boolean; name?: string }): Promise<RunQueue<Start>> {
    const name = options.name ?? RUN_QUEUE;
    const boss = new PgBoss({
      ...adapter(db),
      supervise: options.supervise,
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      monitorIntervalSeconds: SUPERVISE_SECONDS,
      schedule: false,
      registerInstance: false,
    });
    // pg-boss reports a failed background statement as an event; unheard, Node would treat it as a crash.
    boss.on("error", (err: Error) => console.error(`[quiver] the run queue: ${err.message}`));
    await boss.start();
    if (!(await boss.getQueue(name))) {
      await boss
        .createQueue(name, {
          policy: "exclusive",
          heartbeatSeconds: LEASE_SECONDS,
          // A run waiting for a person may wait for days: only the heartbeat bounds a holder.
          expireInSeconds: 24 * 60 * 60,
          retryLimit: RETRIES,
          retryDelay: 0,
          deleteAfterSeconds: 24 * 60 * 60,
        })
        // Another process made it at the same moment.
        .catch(async (err: Error) => {
          if (!(await boss.getQueue(name))) throw err;
        });
    }
    return new RunQueue<Start>(boss, name);
  }

  /** The run's job; false when it has one queued or held already (its policy allows one). Sent with the turn's others. */
  enqueue(job: RunJob<Start>): Promise<boolean> {
    return this.sending.give({ id: randomUUID(), data: job, singletonKey: job.runId });
  }

  /** A job for each of these runs that has none, in one statement. */
  async enqueueAll(runIds: string[]): Promise<void> {
    if (runIds.length === 0) return;
    await this.boss.insert(this.name, runIds.map((runId) => ({ data: { runId }, singletonKey: runId })));
  }

  /** Take jobs from now on, as the taker has room; resolves after the first look, so runs waiting are taken by then. */
  async startTaking(taker: Taker<Start>): Promise<void> {
    this.taker = taker;
    this.poll = setInterval(() => this.wake(), POLL_MS);
    this.refresh = setInterval(() => void this.refreshLeases(), REFRESH_MS);
    this.poll.unref();
    this.refresh.unref();
    await this.wake();
  }

  /**
   * Take no job from now on, once the look under way (if any) has ended; the leases held stay refreshed until each is
   * given back or done (R-queue-stop-ended). A clean stop's first step: a job it gives back must not be taken again
   * by its own next look, or the job stays held by a process that is going away until its lease lapses.
   */
  async stopTaking(): Promise<void> {
    this.closing = true;
    if (this.poll) clearInterval(this.poll);
    await this.passing;
  }

  /** Look for jobs now (a run was just enqueued here, or a run ended and left room). */
  wake(): Promise<void> {
    if (!this.taker || this.stopped || this.closing) return Promise.resolve();
    if (this.passing) {
      this.again = true;
      return this.passing;
    }
    // Cleared in a callback, which runs after this assignment even when the pass awaits nothing (a process with no
    // room): cleared inside the pass, it would be set again as the pass returned, and no later look would happen. A
    // wake that came between the pass's end and the callback looks again then.
    this.passing = this.pass().finally(() => {
      this.passing = null;
      if (this.again) void this.wake();
    });
    return this.passing;
  }

  /** Jobs taken while there is room and the last look found as many as it asked for. */
  private async pass(): Promise<void> {
    try {
      do {
        this.again = false;
        const room = Math.min(BATCH, this.taker!.room());
        if (room <= 0 || this.stopped || this.closing) break;
        const jobs: Job<RunJob<Start>>[] = await this.boss.fetch<RunJob<Start>>(this.name, { batchSize: room });
        const at = Date.now();
        for (const job of jobs) this.held.set(job.data.runId, { id: job.id, retryCount: job.retryCount, at });
        // Each run rebuilt before the next look: by then a decision on it finds it waiting here.
        await Promise.all(jobs.map((job) => this.taker!.take(job.data, job.retryCount === 0)));
        if (jobs.length === room) this.again = true;
      } while (this.again && !this.stopped);
    } catch (err) {
      if (!this.stopped) console.error(`[quiver] taking runs from the queue failed: ${(err as Error).message}`);
    }
  }

  /** Every lease this process holds, refreshed in one statement; a lease found lapsed is the taker's to drop. */
  private async refreshLeases(): Promise<void> {
    if (this.held.size === 0 || this.stopped) return;
    const now = Date.now();
    // Synchronously, in the timer that runs first when a paused process wakes: its runs write nothing more.
    for (const [runId, h] of [...this.held.entries()]) {
      if (now - h.at < STALE_MS) continue;
      this.held.delete(runId);
      this.taker?.lost(runId);
    }
    const held = [...this.held.entries()];
    if (held.length === 0) return;
    const started = performance.now();
    try {
      const touched = (await this.boss.touch(this.name, held.map(([, h]) => ({ id: h.id, retryCount: h.retryCount })))) as { settled?: string[] };
      const kept = new Set(touched.settled ?? []);
      for (const [runId, h] of held) {
        if (this.held.get(runId) !== h) continue;
        if (kept.has(h.id)) {
          h.at = now;
          continue;
        }
        this.held.delete(runId);
        this.taker?.lost(runId);
      }
      this.taker?.onRefresh?.(performance.now() - started, held.length);
      this.taker?.refreshed?.([...this.held.keys()]);
    } catch (err) {
      // A refresh that could not run says nothing about the leases; the next one tries again.
      if (!this.stopped) console.error(`[quiver] refreshing the run leases failed: ${(err as Error).message}`);
    }
  }

  holds(runId: string): boolean {
    return this.held.has(runId);
  }

  /** The run's loop ended here: its job is done (only the attempt this process holds). */
  async done(runId: string): Promise<void> {
    const held = this.held.get(runId);
    if (!held) return;
    this.held.delete(runId);
    await this.completing.give({ id: held.id, retryCount: held.retryCount }).catch((err: Error) => console.error(`[quiver] closing a run's job failed: ${err.message}`));
    void this.wake();
  }

  /** This process stops driving the run with the run unfinished: the job goes back for the next process at once. */
  async release(runId: string): Promise<void> {
    const held = this.held.get(runId);
    if (!held) return;
    this.held.delete(runId);
    // A give-back that fails leaves the job to its lease's lapse, seconds later: said, so a slow takeover shows why.
    await this.boss
      .fail(this.name, { id: held.id, retryCount: held.retryCount }, { reason: "released" })
      .catch((err: Error) => console.error(`[quiver] giving a run's job back failed: ${err.message}`));
  }

  /** Take nothing more; the jobs still held go back (release them first) or lapse. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.forgetDepth();
    if (this.poll) clearInterval(this.poll);
    if (this.refresh) clearInterval(this.refresh);
    await this.passing;
    await this.boss.stop({ graceful: false, close: false }).catch(() => undefined);
  }
}
