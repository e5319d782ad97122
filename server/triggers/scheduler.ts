// What a schedule's tick does. Ticks reach the studio as jobs from pg-boss's scheduler (schedule-clock.ts,
// R-schedule-boss), and each is still claimed in the database by one UPDATE moving the schedule's next tick on, only
// where it still holds the tick being claimed: of several studio processes sharing PostgreSQL exactly one gets the
// row back and starts the run (R-trigger-schedule-once). A tick found later than the grace was missed while no
// process was up: run once or skipped, as the schedule says (R-trigger-schedule-catch-up); the first look at start-up
// finds those.
import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { schedules } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { reportUnexpected } from "@/server/error-report";
import type { Runtime } from "@/server/runtime";
import { nextTick, ticksBetween } from "./cron";
import { activeRunAs } from "./run-as";
import { ScheduleClock, type TickJob } from "./schedule-clock";

export type SchedulerOptions = {
  db: Db;
  runtime: Pick<Runtime, "start">;
  /** The clock; tests move it by hand. */
  now?: () => Date;
  /** How late a tick may be found and still run as on time rather than as missed (60 s). */
  graceMs?: number;
  /** pg-boss's queue of ticks: the studio's own unless tests sharing one database each want theirs. */
  queue?: string;
};

export type TickOutcome =
  | { scheduleId: string; tick: Date; kind: "ran"; runId: string; missed: number }
  | { scheduleId: string; tick: Date; kind: "skipped"; reason: "missed" | "no-person" | "failed"; missed: number };

/** Due schedules taken per look; more wait for the next look, a moment later. */
const BATCH = 100;
/** A tick job that comes before its tick by this clock (the database's runs a little ahead) waits for it. */
const EARLY_MS = 5_000;

type Row = typeof schedules.$inferSelect;

export class Scheduler {
  private readonly now: () => Date;
  private readonly graceMs: number;
  private clock: Promise<ScheduleClock> | null = null;
  private running = false;
  /** Ticks being handled here, so stop() finishes them first. */
  private readonly working = new Set<Promise<unknown>>();
  /** Told each outcome of a tick job this process won (tests watch it). */
  onOutcome?: (outcome: TickOutcome) => void;

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? (() => new Date());
    this.graceMs = options.graceMs ?? 60_000;
  }

  /** Hands every schedule that is on to pg-boss, then looks once, running what start-up finds due or missed. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.clock = ScheduleClock.open(this.options.db, { name: this.options.queue, onTick: (job) => this.track(this.onTick(job)) });
    const clock = await this.clock;
    await this.track(this.sync(clock));
    await this.track(this.scan().then((outcomes) => outcomes.forEach((o) => this.onOutcome?.(o))));
  }

  /** A schedule changed in this process: pg-boss's schedules follow the table at once. */
  poke(): void {
    if (!this.running || !this.clock) return;
    void this.track(this.clock.then((clock) => this.sync(clock)));
  }

  /** Takes no tick more; the ones under way finish before this resolves. */
  async stop(): Promise<void> {
    this.running = false;
    const clock = await this.clock?.catch(() => null);
    this.clock = null;
    await clock?.stop();
    await Promise.allSettled([...this.working]);
  }

  private track<T>(work: Promise<T>): Promise<T | undefined> {
    const tracked = work.catch((error: unknown) => {
      reportUnexpected(error, "the scheduler");
      return undefined;
    });
    this.working.add(tracked);
    void tracked.finally(() => this.working.delete(tracked));
    return tracked;
  }

  private async sync(clock: ScheduleClock): Promise<void> {
    const rows = await this.options.db.select({ id: schedules.id, cron: schedules.cron, timeZone: schedules.timeZone, enabled: schedules.enabled }).from(schedules);
    await clock.sync(rows);
  }

  /** pg-boss's job for one schedule's tick: the tick due now claimed, and run or skipped, by whichever process took the job. */
  private async onTick(job: TickJob): Promise<void> {
    const read = async () => (await this.options.db.select().from(schedules).where(eq(schedules.id, job.scheduleId)))[0];
    let row = await read();
    if (!row?.enabled || !row.nextAt || !this.running) return;
    const early = row.nextAt.getTime() - this.now().getTime();
    if (early > EARLY_MS) return;
    if (early > 0) {
      await new Promise((r) => setTimeout(r, early));
      row = await read();
      if (!row?.enabled || !row.nextAt) return;
    }
    const now = this.now();
    if (row.nextAt.getTime() > now.getTime()) return;
    const outcome = await this.tick(row, now);
    if (outcome) this.onOutcome?.(outcome);
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
