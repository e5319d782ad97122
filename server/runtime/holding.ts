// The runs this process drives (R-queue-lease): those it holds on the run queue, each built from the database and
// driven until its loop ends (its job done) or this process stops it first (its job given back); and specialists'
// runs, driven beside their asker without a job (R-spec-serial). A lease that lapsed here stops its run without
// another write. Edit when what holding a run means changes.
import type { Db } from "@/db/client";
import type { StartInput } from "./begin";
import type { RunBus } from "./bus";
import type { EventLog } from "./events";
import { drive, endCancelled } from "./loop";
import type { RunJob, RunQueue } from "./queue";
import type { Run } from "./run";
import type { Built } from "./taken-run";
import { applyWord, clearWords, wordsOf } from "./words";

/** A run this process holds: its Run once built, its loop, and the newest word on it applied here. */
export type Held = { run: Run | null; loop: Promise<void>; lastWord: number; lost: boolean; queued: boolean };

export type HoldingParts = {
  db: Db;
  log: EventLog;
  bus: RunBus | null;
  /** The run of a job, built to drive (taken-run.ts); `fresh` when no process had begun it. */
  build(runId: string, fresh: StartInput | undefined, start?: StartInput): Promise<Built | null>;
  /** Whether a word on the run was heard of while this process did not hold it (word-desk.ts). */
  heardOf(runId: string): boolean;
  /** The run was taken here: whoever waits for that stops waiting. */
  taken(runId: string): void;
  /** The run queue, once opened. */
  queue(): Promise<RunQueue<StartInput>> | null;
};

export class Holding {
  private readonly live = new Map<string, Held>();

  constructor(private readonly c: HoldingParts) {}

  held(runId: string): Held | undefined {
    return this.live.get(runId);
  }

  get size(): number {
    return this.live.size;
  }

  ids(): string[] {
    return [...this.live.keys()];
  }

  /**
   * A job this process took: the run built from the database (begun here when no process had begun it) and driven.
   * Its job is done when the loop ends, and given back when this process stops first.
   */
  hold(job: RunJob<StartInput>, first: boolean): Promise<void> {
    const { runId } = job;
    void this.c.bus?.taken(runId);
    const held: Held = { run: null, loop: Promise.resolve(), lastWord: 0, lost: false, queued: true };
    const ready = (async () => {
      try {
        const built = await this.c.build(runId, first ? job.start : undefined, job.start);
        if (!built || held.lost) return null;
        held.run = built.run;
        // The words written before this process held the run: the stop first, then decisions the replay waits for.
        // A run nobody has begun has a word only if someone stopped it meanwhile, which this process heard of (or
        // the next lease refresh reads, R-queue-word): a new run's start costs no query here.
        if (!first || !job.start || this.c.heardOf(runId)) {
          for (const { id, word } of await wordsOf(this.c.db, runId)) {
            held.lastWord = id;
            applyWord(built.run, word);
          }
        }
        return built;
      } catch (err) {
        console.error(`[quiver] taking run ${runId} failed: ${(err as Error).message}`);
        return null;
      } finally {
        this.c.taken(runId);
      }
    })();
    held.loop = ready.then(async (built) => (built ? this.driven(built.run, built.before) : undefined)).finally(() => this.let(runId, held));
    this.live.set(runId, held);
    return ready.then(() => undefined);
  }

  /** A specialist's run, driven in its asker's process beside it (they share a lane, R-spec-serial), without a job. */
  launch(run: Run, before?: () => Promise<void>): void {
    const held: Held = { run, loop: Promise.resolve(), lastWord: 0, lost: false, queued: false };
    held.loop = this.driven(run, before).finally(() => this.let(run.id, held));
    this.live.set(run.id, held);
  }

  /** The lease lapsed under this process: another may hold the run now, so this one writes nothing more. */
  lose(runId: string): void {
    const held = this.live.get(runId);
    if (!held) return;
    held.lost = true;
    held.run?.abandon();
  }

  /**
   * Every unfinished loop stopped without writing anything more, as a process that goes away would; a run already told
   * its end is let write it and mark its job done, so a run that ended is never given back (R-queue-stop-ended).
   * Resolves once all have.
   */
  async abandonAll(): Promise<void> {
    const loops = [...this.live.values()];
    for (const { run } of loops) if (run && !run.ending) run.abandon();
    await Promise.allSettled(loops.map((l) => l.loop));
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
    const opened = this.c.queue();
    if (!held.queued || held.lost || !opened) return;
    const queue = await opened;
    await this.c.log.flushed();
    if (held.run?.abandoned) return queue.release(runId);
    // An ended run's words were for what it was: the table keeps only those of unfinished runs.
    if (held.lastWord > 0 && held.run && held.run.status !== "running" && held.run.status !== "waiting") await clearWords(this.c.db, runId).catch(() => undefined);
    await queue.done(runId);
  }
}
