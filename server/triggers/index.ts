// The studio's one scheduler, started with the studio (server/startup.ts) over its runtime and stopped on shutdown;
// the tRPC procedures poke it when a schedule changes in this process. Kept on globalThis, as the runtime is, so
// the route bundles and the start-up bundle share one and a reload in `next dev` starts no second clock.
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { studioRuntime } from "@/server/runtime";
import { SCHEDULE_QUEUE } from "./schedule-clock";
import { Scheduler } from "./scheduler";

export { Scheduler, type SchedulerOptions, type TickOutcome } from "./scheduler";

const holder = globalThis as typeof globalThis & { __quiverScheduler?: Scheduler };

/** The tick queue beside the run queue: a studio whose run queue is named otherwise (tests) has its own ticks too. */
function tickQueue(): string {
  const runs = env().runQueue;
  return runs === "quiver-runs" ? SCHEDULE_QUEUE : `${runs}-schedules`;
}

export async function startStudioScheduler(): Promise<void> {
  if (holder.__quiverScheduler) return;
  const [db, runtime] = await Promise.all([getDb(), studioRuntime()]);
  holder.__quiverScheduler ??= new Scheduler({ db, runtime, queue: tickQueue() });
  await holder.__quiverScheduler.start();
}

export async function stopStudioScheduler(): Promise<void> {
  const scheduler = holder.__quiverScheduler;
  holder.__quiverScheduler = undefined;
  await scheduler?.stop();
}

/** A schedule changed here: pg-boss's schedules follow at once, so its new ticks are sent. */
export function pokeScheduler(): void {
  holder.__quiverScheduler?.poke();
}
