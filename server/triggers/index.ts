// The studio's one scheduler, started with the studio (server/startup.ts) over its runtime and stopped on shutdown;
// the tRPC procedures poke it when a schedule changes in this process. Kept on globalThis, as the runtime is, so
// the route bundles and the start-up bundle share one and a reload in `next dev` starts no second clock.
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { reportUnexpected } from "@/server/error-report";
import { studioRuntime } from "@/server/runtime";
import { markBackgroundFailed, takeDeferredScheduler } from "@/server/startup-state";
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

/**
 * A schedule changed here: pg-boss's schedules follow at once, so its new ticks are sent. Where the start-up left the
 * scheduler for this moment (R-boot-queue-on-use), it starts now, and its start reads the schedules.
 */
export function pokeScheduler(): void {
  const scheduler = holder.__quiverScheduler;
  if (scheduler) return scheduler.poke();
  if (!takeDeferredScheduler()) return;
  void startStudioScheduler().catch((err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    markBackgroundFailed(error, `The studio started, but the scheduler did not: ${reportUnexpected(error, "starting the scheduler").sentence}`);
  });
}
