// A schedule's times (R-trigger-schedule-cron): a cron expression of five fields (or a nickname such as @daily) read
// in an IANA time zone, by croner. Each fault is a sentence at its field, said in the builder's words rather than
// croner's. Edit when a schedule may say its times another way.
import { Cron } from "croner";

export type CronProblem = { path: "cron" | "timeZone"; message: string };

const FIELDS = ["minute", "hour", "day of the month", "month", "day of the week"] as const;
const NICKNAMES = ["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"];
const EXAMPLE = "like 0 9 * * 1-5 (9:00 on weekdays) or */15 * * * * (every quarter hour)";

/** Whether `zone` is a time zone this machine's Intl knows, as croner will read it. */
export function knownTimeZone(zone: string): boolean {
  if (zone.trim() === "" || zone !== zone.trim()) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function parses(expression: string): boolean {
  try {
    new Cron(expression, { mode: "5-part", timezone: "UTC" });
    return true;
  } catch {
    return false;
  }
}

/** The sentence for a cron expression croner will not read, naming the field at fault where one is. */
function cronProblem(expression: string): string | null {
  const cron = expression.trim();
  if (cron === "") return `Write a cron expression: five fields, minute hour day month weekday, ${EXAMPLE}.`;
  if (cron.startsWith("@")) {
    return NICKNAMES.includes(cron.toLowerCase()) ? null : `“${cron}” is no cron nickname; write one of ${NICKNAMES.join(", ")}, or five fields ${EXAMPLE}.`;
  }
  const parts = cron.split(/\s+/);
  if (parts.length !== 5) {
    const seconds = parts.length === 6 ? " (a schedule runs at most once a minute, so there is no seconds field)" : "";
    return `A cron expression has five fields, minute hour day month weekday; this one has ${parts.length}${seconds}. Write one ${EXAMPLE}.`;
  }
  if (parses(cron)) return null;
  // Each field alone, the others left at *, finds the one croner refuses.
  const bad = parts.findIndex((part, i) => !parses(parts.map((p, j) => (j === i ? part : "*")).join(" ")));
  if (bad >= 0) return `The ${FIELDS[bad]} field “${parts[bad]}” is not one cron reads; write a number, a range (1-5), a list (1,15) or a step (*/10) there.`;
  return `“${cron}” is not a cron expression the studio reads; write one ${EXAMPLE}.`;
}

/** Every fault of a cron expression and time zone, each at its field; a cron that never comes is one too. */
export function scheduleTimeProblems(cron: string, timeZone: string, from = new Date()): CronProblem[] {
  const problems: CronProblem[] = [];
  const cronFault = cronProblem(cron);
  if (cronFault) problems.push({ path: "cron", message: cronFault });
  if (!knownTimeZone(timeZone)) {
    const zone = timeZone.trim();
    problems.push({
      path: "timeZone",
      message: zone === "" ? "Pick the time zone the times are read in, like Europe/Paris or UTC." : `“${zone}” is not a time zone the studio knows; write one like Europe/Paris, America/New_York or UTC.`,
    });
  }
  if (problems.length === 0 && nextTimes(cron, timeZone, 1, from).length === 0) {
    problems.push({ path: "cron", message: `“${cron.trim()}” never comes (no such day in any year); check the day and month fields.` });
  }
  return problems;
}

function cronOf(cron: string, timeZone: string): Cron {
  return new Cron(cron.trim(), { mode: "5-part", timezone: timeZone });
}

/** The next `count` ticks strictly after `from`; call only for a cron and zone without problems. */
export function nextTimes(cron: string, timeZone: string, count: number, from: Date): Date[] {
  return cronOf(cron, timeZone).nextRuns(count, from);
}

/** The first tick strictly after `from`, or null when there is none (or the stored expression no longer reads). */
export function nextTick(cron: string, timeZone: string, from: Date): Date | null {
  try {
    return cronOf(cron, timeZone).nextRun(from);
  } catch {
    return null;
  }
}

/** How many ticks fell in (after, upTo], counted up to `cap`. */
export function ticksBetween(cron: string, timeZone: string, after: Date, upTo: Date, cap = 1000): number {
  const iterator = cronOf(cron, timeZone).enumerate(after);
  let count = 0;
  for (const at of iterator) {
    if (at > upTo || count >= cap) break;
    count++;
  }
  return count;
}

/** A tick as the builder reads it, in the schedule's own zone: "Mon 30 Mar 2026, 09:00". */
export function tickLabel(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("weekday")} ${part("day")} ${part("month")} ${part("year")}, ${part("hour")}:${part("minute")}`;
}
