// Schedules' ticks through pg-boss's own scheduler (R-schedule-boss): each schedule that is on is a pg-boss schedule
// (its cron, its zone, keyed by its id) on one queue, and pg-boss's cron pass, claimed by one process at a time,
// sends one job per tick, which one process takes (R-schedule-once-across). What a tick does is scheduler.ts's.
// Edit when how ticks reach the studio changes.
import { PgBoss, type Job } from "pg-boss";
import type { Db } from "@/db/client";
import { adapter } from "@/server/runtime/queue";

/** The queue of ticks every process of a studio shares; tests sharing one database name their own. */
export const SCHEDULE_QUEUE = "quiver-schedules";
/** How often pg-boss's cron pass runs (one process wins each), and how often a process asks for tick jobs (R-ops-pgboss-cron). */
const CRON_PASS_SECONDS = 5;
const TICK_POLL_SECONDS = 1;

export type TickJob = { scheduleId: string };

export type ClockSchedule = { id: string; cron: string; timeZone: string; enabled: boolean };

export class ScheduleClock {
  private constructor(
    private readonly boss: PgBoss,
    readonly name: string,
  ) {}

  /** pg-boss started with its scheduler on, the tick queue made, and `onTick` given each tick job this process takes. */
  static async open(db: Db, options: { name?: string; onTick: (job: TickJob) => Promise<void> }): Promise<ScheduleClock> {
    const name = options.name ?? SCHEDULE_QUEUE;
    const boss = new PgBoss({
      ...adapter(db),
      supervise: false,
      schedule: true,
      cronMonitorIntervalSeconds: CRON_PASS_SECONDS,
      cronWorkerIntervalSeconds: TICK_POLL_SECONDS,
      registerInstance: false,
    });
    boss.on("error", (err: Error) => console.error(`[quiver] the schedule clock: ${err.message}`));
    await boss.start();
    if (!(await boss.getQueue(name))) {
      await boss
        // A tick is short work (one claim, one run queued): a failed one is tried once more, soon.
        .createQueue(name, { policy: "standard", retryLimit: 1, retryDelay: 1, expireInSeconds: 60, deleteAfterSeconds: 24 * 60 * 60 })
        .catch(async (err: Error) => {
          if (!(await boss.getQueue(name))) throw err;
        });
    }
    const clock = new ScheduleClock(boss, name);
    await boss.work<TickJob>(name, { pollingIntervalSeconds: TICK_POLL_SECONDS, batchSize: 10 }, async (jobs: Job<TickJob>[]) => {
      for (const job of jobs) await options.onTick(job.data);
    });
    return clock;
  }

  /**
   * pg-boss's schedule for this one as the table holds it: on, with its cron and zone; off or gone, none. A tick
   * missed while no process ran its cron pass still sends one job (`missed: once`): the scheduler then decides, by
   * the schedule's own catch-up, whether it runs (R-trigger-schedule-catch-up).
   */
  async set(schedule: ClockSchedule | { id: string; enabled: false }): Promise<void> {
    if (!schedule.enabled) return this.boss.unschedule(this.name, schedule.id);
    const { id, cron, timeZone } = schedule as ClockSchedule;
    await this.boss.schedule(this.name, cron, { scheduleId: id } satisfies TickJob, { tz: timeZone, key: id, missed: "once" });
  }

  /** Make pg-boss's schedules those of the table: each that is on set, each it has that is not, removed. */
  async sync(all: ClockSchedule[]): Promise<void> {
    const on = all.filter((s) => s.enabled);
    const keep = new Set(on.map((s) => s.id));
    const theirs = await this.boss.getSchedules(this.name);
    for (const stale of theirs.filter((s) => !keep.has(s.key))) await this.boss.unschedule(this.name, stale.key);
    const known = new Map(theirs.map((s) => [s.key, s]));
    for (const s of on) {
      const had = known.get(s.id);
      if (had && had.cron === s.cron && had.timezone === s.timeZone) continue;
      await this.set(s).catch((err: Error) => console.error(`[quiver] schedule ${s.id} could not be given to the clock: ${err.message}`));
    }
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, close: false, timeout: 5_000 }).catch(() => undefined);
  }
}
