// When a test of pg-boss's real cron pass saves its every-minute schedule, so the tick comes within seconds rather
// than at the next whole minute. pg-boss 12 sends a cron schedule's most recent occurrence within the last minute, one
// job a minute slot, so a schedule saved a moment before this minute began is due now and the next pass sends its
// occurrence; the scheduler finds that tick within its grace (a minute) and runs it on time. The schedule must be
// turned on while the scheduler runs, or its start-up look would run the due tick itself. Late in a minute too
// little of the grace is left for a slow pass, so the save is now and the tick the next minute's.

/** How far into a minute the current minute's tick is still used. */
const STILL_THIS_MINUTE_MS = 40_000;

export function savedForASoonTick(now = Date.now()): Date {
  const minute = Math.floor(now / 60_000) * 60_000;
  return now - minute < STILL_THIS_MINUTE_MS ? new Date(minute - 1_000) : new Date(now);
}
