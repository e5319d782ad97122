// The clock that starts scheduled runs. Each tick is claimed in the database by one UPDATE moving the schedule's next
// tick on, only where it still holds the tick being claimed: of several studio processes sharing PostgreSQL exactly
// one gets the row back and starts the run (R-trigger-schedule-once). A tick found later than the grace was missed
// while no process was up: run once or skipped, as the schedule says (R-trigger-schedule-catch-up). One timer, set
// for the soonest tick and never further off than maxSleepMs, so a schedule another process changed is seen too.
import { and, asc, eq, lte, min } from "drizzle-orm";
import type { Db } from "@/db/client";
import { schedules } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { reportUnexpected } from "@/server/error-report";
import type { Runtime } from "@/server/runtime";
import { nextTick, ticksBetween } from "./cron";
import { activeRunAs } from "./run-as";

export type SchedulerOptions = {
  db: Db;
  runtime: Pick<Runtime, "start">;
  /** The clock; tests move it by hand. */
  now?: () => Date;
  /** The longest the scheduler sleeps between looks at the table (30 s). */
  maxSleepMs?: number;
  /** How late a tick may be found and still run as on time rather than as missed (60 s). */
  graceMs?: number;
};

export type TickOutcome =
  | { scheduleId: string; tick: Date; kind: "ran"; runId: string; missed: number }
  | { scheduleId: string; tick: Date; kind: "skipped"; reason: "missed" | "no-person" | "failed"; missed: number };

/** Due schedules taken per look; more wait for the next look, a moment later. */
const BATCH = 100;
/** The least pause after a look that left a tick due (another process holds it, or it was just changed). */
const BUSY_PAUSE_MS = 1_000;

type Row = typeof schedules.$inferSelect;

export class Scheduler {
  private readonly now: () => Date;
  private readonly maxSleepMs: number;
  private readonly graceMs: number;
  private timer: NodeJS.Timeout | null = null;
  private looking: Promise<void> | null = null;
  private running = false;
  private again = false;

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? (() => new Date());
    this.maxSleepMs = options.maxSleepMs ?? 30_000;
    this.graceMs = options.graceMs ?? 60_000;
  }

  /** Looks at once (running what start-up finds due or missed), then at each tick. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake(0);
  }

  /** A schedule changed in this process: look again now rather than at the next wake. */
  poke(): void {
    if (this.running) this.wake(0);
  }

  /** No timer is left behind, and a look under way is finished before this resolves. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.looking;
  }

  private wake(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.look(), ms);
    this.timer.unref();
  }

  private async look(): Promise<void> {
    this.timer = null;
    if (this.looking) {
      // Woken during a look: look once more when it is done, since what changed may have been read before.
      this.again = true;
      return;
    }
    let sleep = this.maxSleepMs;
    this.looking = (async () => {
      try {
        await this.scan();
        sleep = await this.untilNext();
      } catch (error) {
        reportUnexpected(error, "the scheduler");
      }
    })();
    await this.looking;
    this.looking = null;
    if (!this.running) return;
    if (this.again) {
      this.again = false;
      this.wake(0);
    } else if (!this.timer) this.wake(sleep);
  }

  /** How long until the soonest tick of a schedule that is on, bounded both ways. */
  private async untilNext(): Promise<number> {
    const [row] = await this.options.db.select({ soonest: min(schedules.nextAt) }).from(schedules).where(eq(schedules.enabled, true));
    if (!row?.soonest) return this.maxSleepMs;
    const ms = new Date(row.soonest).getTime() - this.now().getTime();
    return ms <= 0 ? BUSY_PAUSE_MS : Math.min(ms, this.maxSleepMs);
  }

  /** One look: every tick due now claimed, and run or skipped. What this process won is returned. */
  async scan(): Promise<TickOutcome[]> {
    const now = this.now();
    const due = await this.options.db
      .select()
      .from(schedules)
      .where(and(eq(schedules.enabled, true), lte(schedules.nextAt, now)))
      .orderBy(asc(schedules.nextAt))
      .limit(BATCH);
    const outcomes: TickOutcome[] = [];
    for (const row of due) {
      const outcome = await this.tick(row, now);
      if (outcome) outcomes.push(outcome);
    }
    return outcomes;
  }

  /** Claims the row's tick; false when another process claimed it first (or the schedule changed meanwhile). */
  private async claim(row: Row, tick: Date, now: Date): Promise<boolean> {
    const following = nextTick(row.cron, row.timeZone, now);
    const claimed = await this.options.db
      .update(schedules)
      .set({ nextAt: following, lastTickAt: tick })
      .where(and(eq(schedules.id, row.id), eq(schedules.nextAt, tick), eq(schedules.enabled, true)))
      .returning({ id: schedules.id });
    return claimed.length === 1;
  }

  private async tick(row: Row, now: Date): Promise<TickOutcome | null> {
    const db = this.options.db;
    const tick = row.nextAt!;
    if (!(await this.claim(row, tick, now))) return null;
    const late = now.getTime() - tick.getTime() > this.graceMs;
    // The ticks that passed unrun, this one included; one when on time.
    const missed = late ? ticksBetween(row.cron, row.timeZone, new Date(tick.getTime() - 1), now) : 0;
    const base = { scheduleId: row.id, tick, missed };
    const actor = `schedule:${row.id}`;
    const detail = { agentId: row.agentId, tick: tick.toISOString(), missed };
    if (late && row.catchUp === "skip") {
      await recordAudit(db, { actor, action: "schedule.skipped", target: row.id, detail: { ...detail, reason: "missed" } });
      return { ...base, kind: "skipped", reason: "missed" };
    }
    const who = await activeRunAs(db, row.runAs);
    if (!who) {
      await recordAudit(db, { actor, action: "schedule.skipped", target: row.id, detail: { ...detail, reason: "no-person", runAs: row.runAs } });
      return { ...base, kind: "skipped", reason: "no-person" };
    }
    try {
      const { runId } = await this.options.runtime.start({ agentId: row.agentId, message: row.message, user: who, via: { kind: "schedule" } });
      await db.update(schedules).set({ lastRunId: runId }).where(eq(schedules.id, row.id));
      await recordAudit(db, { actor, action: "schedule.run", target: runId, detail: { ...detail, runId, runAs: who.id } });
      return { ...base, kind: "ran", runId };
    } catch (error) {
      const { id } = reportUnexpected(error, `the scheduler, schedule ${row.id}`);
      await recordAudit(db, { actor, action: "schedule.skipped", target: row.id, detail: { ...detail, reason: "failed", errorId: id } });
      return { ...base, kind: "skipped", reason: "failed" };
    }
  }
}
