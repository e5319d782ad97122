// An agent's schedules as the Triggers section keeps them (R-trigger-schedule-cron): made, changed, turned on and off,
// removed, each fault a sentence at its field, listed with their next five times; and the preview the form asks for
// as the builder types. A schedule's next tick is set here from now; the scheduler moves it on from there.
import { asc, count, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { catchUps, schedules, type CatchUp } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import { textProblem } from "@/server/input/text";
import { MESSAGE_MAX } from "./body";
import { nextTick, nextTimes, scheduleTimeProblems, tickLabel } from "./cron";
import { agentNamed, invalidTrigger, runAsOf, type RunAs, type TriggerProblem } from "./run-as";

export const SCHEDULES_PER_AGENT = 20;
export const PREVIEW_COUNT = 5;

export type ScheduleInput = { cron: string; timeZone: string; message: string; enabled: boolean; catchUp: CatchUp };

export type Tick = { at: Date; label: string };

export type ScheduleView = ScheduleInput & {
  id: string;
  agentId: string;
  /** The next five ticks while on; none while off. */
  next: Tick[];
  lastTickAt: Date | null;
  lastRunId: string | null;
  updatedAt: Date;
  runAs: RunAs;
};

type Row = typeof schedules.$inferSelect;

/** The next ticks after `from`, each with its label in the schedule's zone; none for a cron or zone with problems. */
export function preview(cron: string, timeZone: string, from: Date): { times: Tick[]; problems: TriggerProblem[] } {
  const problems = scheduleTimeProblems(cron, timeZone, from);
  if (problems.length > 0) return { times: [], problems };
  return { times: nextTimes(cron, timeZone, PREVIEW_COUNT, from).map((at) => ({ at, label: tickLabel(at, timeZone) })), problems };
}

function problemsOf(input: ScheduleInput, now: Date): TriggerProblem[] {
  const problems: TriggerProblem[] = scheduleTimeProblems(input.cron, input.timeZone, now);
  const message = input.message.trim();
  if (message === "") problems.push({ path: "message", message: "Write the message each run starts with, as you would type it in the playground." });
  else if (message.length > MESSAGE_MAX) {
    problems.push({ path: "message", message: `A message has at most ${MESSAGE_MAX.toLocaleString("en")} characters; this one has ${message.length.toLocaleString("en")}.` });
  } else {
    const fault = textProblem(message);
    if (fault) problems.push({ path: "message", message: `The message ${fault}.` });
  }
  if (!catchUps.includes(input.catchUp)) problems.push({ path: "catchUp", message: "Choose whether a tick missed while the studio was down runs once or is skipped." });
  return problems;
}

async function viewOf(db: Db, row: Row, now: Date): Promise<ScheduleView> {
  const { id, agentId, cron, timeZone, message, enabled, catchUp, lastTickAt, lastRunId, updatedAt } = row;
  const next = enabled && row.nextAt ? preview(cron, timeZone, new Date(Math.max(now.getTime(), row.nextAt.getTime()) - 1)).times : [];
  return { id, agentId, cron, timeZone, message, enabled, catchUp, next, lastTickAt, lastRunId, updatedAt, runAs: await runAsOf(db, row.runAs) };
}

function noSchedule(id: string): DomainError {
  return new DomainError("NOT_FOUND", "NO_SUCH_SCHEDULE", "There is no such schedule; it may have been removed meanwhile.", { id });
}

export async function listSchedules(db: Db, agentId: string, now = new Date()): Promise<ScheduleView[]> {
  await agentNamed(db, agentId);
  const rows = await db.select().from(schedules).where(eq(schedules.agentId, agentId)).orderBy(asc(schedules.createdAt));
  return Promise.all(rows.map((row) => viewOf(db, row, now)));
}

export async function createSchedule(db: Db, actor: string, agentId: string, input: ScheduleInput, now = new Date()): Promise<ScheduleView> {
  await agentNamed(db, agentId);
  const problems = problemsOf(input, now);
  const [{ n }] = (await db.select({ n: count() }).from(schedules).where(eq(schedules.agentId, agentId))) as [{ n: number }];
  if (n >= SCHEDULES_PER_AGENT) problems.push({ path: "cron", message: `An agent has at most ${SCHEDULES_PER_AGENT} schedules; remove one first.` });
  if (problems.length > 0) throw invalidTrigger(problems, "schedule");
  const [row] = await db
    .insert(schedules)
    .values({
      agentId,
      cron: input.cron.trim(),
      timeZone: input.timeZone,
      message: input.message.trim(),
      enabled: input.enabled,
      catchUp: input.catchUp,
      nextAt: input.enabled ? nextTick(input.cron, input.timeZone, now) : null,
      runAs: actor,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await recordAudit(db, { actor, action: "schedule.created", target: row!.id, detail: { agentId, cron: row!.cron, timeZone: row!.timeZone, enabled: row!.enabled } });
  return viewOf(db, row!, now);
}

/** A changed schedule; its next tick is counted again from now, and its runs start as whoever changed it. */
export async function updateSchedule(db: Db, actor: string, id: string, patch: Partial<ScheduleInput>, now = new Date()): Promise<ScheduleView> {
  const [before] = await db.select().from(schedules).where(eq(schedules.id, id));
  if (!before) throw noSchedule(id);
  const input: ScheduleInput = { cron: before.cron, timeZone: before.timeZone, message: before.message, enabled: before.enabled, catchUp: before.catchUp, ...patch };
  const problems = problemsOf(input, now);
  if (problems.length > 0) throw invalidTrigger(problems, "schedule");
  const [row] = await db
    .update(schedules)
    .set({
      cron: input.cron.trim(),
      timeZone: input.timeZone,
      message: input.message.trim(),
      enabled: input.enabled,
      catchUp: input.catchUp,
      nextAt: input.enabled ? nextTick(input.cron, input.timeZone, now) : null,
      runAs: actor,
      updatedAt: now,
    })
    .where(eq(schedules.id, id))
    .returning();
  if (!row) throw noSchedule(id);
  await recordAudit(db, { actor, action: "schedule.updated", target: id, detail: { agentId: row.agentId, cron: row.cron, timeZone: row.timeZone, enabled: row.enabled } });
  return viewOf(db, row, now);
}

export async function removeSchedule(db: Db, actor: string, id: string): Promise<{ id: string }> {
  const [row] = await db.delete(schedules).where(eq(schedules.id, id)).returning({ id: schedules.id, agentId: schedules.agentId });
  if (!row) throw noSchedule(id);
  await recordAudit(db, { actor, action: "schedule.removed", target: id, detail: { agentId: row.agentId } });
  return { id };
}
