// How the studio's start went: still starting, done, or what went wrong once the database itself was
// fine (a studio key that does not match the secrets, say), and whether the parts started after the first page (the
// run queue, the scheduler) came up. Kept on globalThis because instrumentation and routes are bundled apart.
export type StartupFailure = { error: Error; sentence: string };

type State = { done: boolean; failure: StartupFailure | null; background: StartupFailure | null; schedulerDeferred?: boolean };

const holder = globalThis as typeof globalThis & { __quiverStartup?: State };

function state(): State {
  holder.__quiverStartup ??= { done: false, failure: null, background: null };
  holder.__quiverStartup.background ??= null;
  return holder.__quiverStartup;
}

/** `sentence` is what /api/health answers: the error's own message only when the studio wrote it for a person. */
export function markStartupFailed(error: Error, sentence: string): void {
  state().failure = { error, sentence };
}

/** Every start-up step finished: migrations, the key check, the owner from the environment. */
export function markStartupDone(): void {
  state().done = true;
}

/** The start-up error and the sentence /api/health reports, or null. */
export function startupFailure(): StartupFailure | null {
  return state().failure;
}

export function startupDone(): boolean {
  return state().done;
}

/** A part started after the first page (the run queue, the scheduler) did not start: /api/health says so (R-boot-after-page). */
export function markBackgroundFailed(error: Error, sentence: string): void {
  state().background ??= { error, sentence };
}

export function backgroundFailure(): StartupFailure | null {
  return state().background;
}

/** The start-up left the scheduler for the first change of a schedule (R-boot-queue-on-use). */
export function deferScheduler(): void {
  state().schedulerDeferred = true;
}

/** Whether the start-up left the scheduler to the first change of a schedule; true once only, for the change that starts it. */
export function takeDeferredScheduler(): boolean {
  const deferred = state().schedulerDeferred === true;
  state().schedulerDeferred = false;
  return deferred;
}

// scripts/serve.mjs calls this once the first answer has gone out and no request is in flight, so the parts a first
// page does not need start only then (R-boot-after-page). The same spelling as in scripts/serve.mjs.
const SERVED = Symbol.for("quiver.first-page-served");
type Served = { served?: boolean; listeners?: (() => void)[] };

/** Resolves once the first page has been served, or after `fallbackMs` when nothing says so (`next start`, `next dev`). */
export function firstPageServed(fallbackMs: number): Promise<void> {
  const served = ((globalThis as Record<symbol, Served | undefined>)[SERVED] ??= {});
  if (served.served) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, fallbackMs);
    (served.listeners ??= []).push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
