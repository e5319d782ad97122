// Schedules on the embedded database, the clock moved by hand: a tick starts one run via the schedule as its maker;
// two schedulers on one database start one run between them; a stop longer than the grace is caught up once or
// skipped as the schedule says; an off schedule and a disabled maker start nothing; and the scheduler's own timer
// starts a run on time and stops cleanly (R-trigger-schedule-once, R-trigger-schedule-catch-up, R-trigger-run-as).
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit, runs, schedules, user } from "@/db/schema";
import { Scheduler, type TickOutcome } from "@/server/triggers";
import { createSchedule, listSchedules, updateSchedule, type ScheduleInput } from "@/server/triggers/schedules";
import { text } from "@/tests/support/loopback-model";
import { savedForASoonTick } from "@/tests/support/soon-tick";
import { ANN, settled, studio, type Studio } from "../runtime/setup";

let s: Studio;
let clock: Date;
const now = () => clock;
const at = (iso: string) => (clock = new Date(iso));
const scheduler = () => new Scheduler({ db: s.database.db, runtime: s.runtime, now });

const every15: ScheduleInput = { cron: "*/15 * * * *", timeZone: "Europe/Paris", message: "Check the queue.", enabled: true, catchUp: "skip" };

beforeAll(async () => {
  s = await studio("triggers-schedules", {});
});
beforeEach(() => {
  s.model.reset();
  s.model.fallback = text("Checked.");
  at("2026-03-27T12:05:00Z");
});
// Each test's schedules go with it, so a scan sees only the schedule the test made.
afterEach(async () => void (await s.database.db.delete(schedules)));
afterAll(async () => s?.close());

async function runsOf(agentId: string) {
  return s.database.db.select().from(runs).where(and(eq(runs.agentId, agentId), eq(runs.via, "schedule")));
}

async function made(input: Partial<ScheduleInput> = {}) {
  const agentId = await s.agent({ tools: [] });
  const schedule = await createSchedule(s.database.db, ANN.id, agentId, { ...every15, ...input }, clock);
  return { agentId, schedule };
}

async function nextAt(id: string): Promise<string | null> {
  const [row] = await s.database.db.select({ nextAt: schedules.nextAt }).from(schedules).where(eq(schedules.id, id));
  return row?.nextAt?.toISOString() ?? null;
}

describe("a schedule's ticks", () => {
  it("lists the next five times from the clock, in the schedule's zone", async () => {
    const { agentId, schedule } = await made();
    expect(schedule.next.map((t) => t.label)).toEqual([
      "Fri 27 Mar 2026, 13:15",
      "Fri 27 Mar 2026, 13:30",
      "Fri 27 Mar 2026, 13:45",
      "Fri 27 Mar 2026, 14:00",
      "Fri 27 Mar 2026, 14:15",
    ]);
    expect((await listSchedules(s.database.db, agentId, clock))[0]!.next[0]!.at.toISOString()).toBe("2026-03-27T12:15:00.000Z");
  });

  it("starts one run at a tick, via the schedule, as the person who made it, with its message", async () => {
    const { agentId, schedule } = await made();
    const clockwork = scheduler();
    expect(await clockwork.scan()).toEqual([]);
    at("2026-03-27T12:15:01Z");
    const [outcome, ...more] = await clockwork.scan();
    expect(more).toEqual([]);
    expect(outcome).toMatchObject({ kind: "ran", scheduleId: schedule.id, missed: 0 });
    expect(await clockwork.scan()).toEqual([]);
    expect(await nextAt(schedule.id)).toBe("2026-03-27T12:30:00.000Z");
    const run = await settled(s, (outcome as { runId: string }).runId);
    expect(run).toMatchObject({ via: "schedule", startedBy: ANN.id, startedByName: ANN.name, status: "done" });
    const said = (await s.events(run.id)).filter((e) => e.type === "message" && e.data.role === "user").map((e) => e.data.text);
    expect(said).toEqual(["Check the queue."]);
    expect(await runsOf(agentId)).toHaveLength(1);
    const [row] = await s.database.db.select().from(audit).where(and(eq(audit.action, "schedule.run"), eq(audit.target, run.id)));
    expect(row).toMatchObject({ actor: `schedule:${schedule.id}` });
  });

  it("starts exactly one run when two schedulers on one database race for the same tick", async () => {
    const { agentId } = await made();
    const [a, b] = [scheduler(), scheduler()];
    for (const tick of ["2026-03-27T12:15:00Z", "2026-03-27T12:30:00Z", "2026-03-27T12:45:00Z"]) {
      at(tick);
      const outcomes = (await Promise.all([a.scan(), b.scan(), a.scan()])).flat();
      expect(outcomes.filter((o) => o.kind === "ran")).toHaveLength(1);
    }
    expect(await runsOf(agentId)).toHaveLength(3);
  });

  it("starts nothing while off, and counts from now once turned on again", async () => {
    const { agentId, schedule } = await made();
    await updateSchedule(s.database.db, ANN.id, schedule.id, { enabled: false }, clock);
    expect(await nextAt(schedule.id)).toBeNull();
    at("2026-03-27T13:00:01Z");
    expect(await scheduler().scan()).toEqual([]);
    const back = await updateSchedule(s.database.db, ANN.id, schedule.id, { enabled: true }, clock);
    expect(back.next[0]!.at.toISOString()).toBe("2026-03-27T13:15:00.000Z");
    expect(await runsOf(agentId)).toHaveLength(0);
  });

  it("skips a tick while the person who made the schedule is disabled, and says why in the audit log", async () => {
    const { agentId, schedule } = await made();
    await s.database.db.update(user).set({ disabled: true }).where(eq(user.id, ANN.id));
    try {
      at("2026-03-27T12:15:00Z");
      expect(await scheduler().scan()).toEqual([expect.objectContaining({ kind: "skipped", reason: "no-person" })]);
    } finally {
      await s.database.db.update(user).set({ disabled: false }).where(eq(user.id, ANN.id));
    }
    expect(await runsOf(agentId)).toHaveLength(0);
    const [row] = await s.database.db.select().from(audit).where(and(eq(audit.action, "schedule.skipped"), eq(audit.target, schedule.id)));
    expect(row!.detail).toMatchObject({ reason: "no-person" });
  });
});

describe("ticks missed while no studio was up", () => {
  it("runs once for all of them when the schedule says run once", async () => {
    const { agentId, schedule } = await made({ catchUp: "run_once" });
    // Down from before 12:15 until 15:07: twelve quarter hours passed unrun.
    at("2026-03-27T15:07:00Z");
    const outcomes = await scheduler().scan();
    expect(outcomes).toEqual([expect.objectContaining({ kind: "ran", missed: 12 })]);
    expect(await scheduler().scan()).toEqual([]);
    expect(await nextAt(schedule.id)).toBe("2026-03-27T15:15:00.000Z");
    expect(await runsOf(agentId)).toHaveLength(1);
  });

  it("runs none of them when the schedule says skip, and the next tick runs as usual", async () => {
    const { agentId, schedule } = await made({ catchUp: "skip" });
    at("2026-03-27T15:07:00Z");
    expect(await scheduler().scan()).toEqual([expect.objectContaining({ kind: "skipped", reason: "missed", missed: 12 })]);
    expect(await nextAt(schedule.id)).toBe("2026-03-27T15:15:00.000Z");
    expect(await runsOf(agentId)).toHaveLength(0);
    at("2026-03-27T15:15:02Z");
    expect(await scheduler().scan()).toEqual([expect.objectContaining({ kind: "ran", missed: 0 })]);
    expect(await runsOf(agentId)).toHaveLength(1);
  });

  it("counts a tick found within the grace as on time, not missed", async () => {
    const { agentId } = await made({ catchUp: "skip" });
    at("2026-03-27T12:15:45Z");
    expect(await scheduler().scan()).toEqual([expect.objectContaining({ kind: "ran" })]);
    expect(await runsOf(agentId)).toHaveLength(1);
  });
});

describe("the scheduler's own clock", () => {
  it("R-schedule-boss: hands each schedule that is on to pg-boss with its cron and zone, starts one run at its tick, and takes it back when turned off", async () => {
    const queue = "test-schedules-pglite";
    // On before the scheduler starts, so its start hands it over; yearly, so it does not tick here.
    const yearly = await made({ cron: "0 9 1 1 *", timeZone: "America/New_York" });
    await updateSchedule(s.database.db, ANN.id, yearly.schedule.id, {}, new Date());
    const clockwork = new Scheduler({ db: s.database.db, runtime: s.runtime, queue });
    const won: TickOutcome[] = [];
    clockwork.onOutcome = (outcome) => won.push(outcome);
    await clockwork.start();
    try {
      expect(await bossSchedules(queue)).toEqual([expect.objectContaining({ key: yearly.schedule.id, cron: "0 9 1 1 *", timezone: "America/New_York" })]);
      // Turned on while the scheduler runs, by a save a moment before this minute began: due now, so the start-up
      // look cannot have run it, and only pg-boss's cron pass, handed it by poke(), sends its tick.
      const { agentId, schedule } = await made({ cron: "* * * * *", timeZone: "Europe/Paris", enabled: false });
      await updateSchedule(s.database.db, ANN.id, schedule.id, { enabled: true }, savedForASoonTick());
      clockwork.poke();
      await expect.poll(() => bossSchedules(queue), { timeout: 5_000 }).toContainEqual(expect.objectContaining({ key: schedule.id, cron: "* * * * *", timezone: "Europe/Paris" }));
      const deadline = Date.now() + 80_000;
      while (won.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      const started = await runsOf(agentId);
      expect(started).toHaveLength(1);
      expect(won).toEqual([expect.objectContaining({ kind: "ran", scheduleId: schedule.id, missed: 0, runId: started[0]!.id })]);
      await settled(s, started[0]!.id);

      for (const id of [schedule.id, yearly.schedule.id]) await updateSchedule(s.database.db, ANN.id, id, { enabled: false }, new Date());
      clockwork.poke();
      await expect.poll(() => bossSchedules(queue), { timeout: 5_000 }).toEqual([]);
    } finally {
      await clockwork.stop();
    }
  }, 100_000);
});

/** pg-boss's own schedules on a queue, read from its table. */
async function bossSchedules(queue: string) {
  const rows = await s.database.db.execute(sql`select key, cron, timezone from pgboss.schedule where name = ${queue}`);
  return (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { key: string; cron: string; timezone: string }[];
}
