// How the studio's start went: still starting, done, or what went wrong once the database itself was
// fine (a studio key that does not match the secrets, say). Kept on globalThis because instrumentation
// and routes are bundled apart.
const holder = globalThis as typeof globalThis & { __quiverStartup?: { done: boolean; error: Error | null } };

function state() {
  holder.__quiverStartup ??= { done: false, error: null };
  return holder.__quiverStartup;
}

export function markStartupFailed(error: Error): void {
  state().error = error;
}

/** Every start-up step finished: migrations, the key check, the owner from the environment. */
export function markStartupDone(): void {
  state().done = true;
}

/** The start-up error /api/health reports, or null. */
export function startupFailure(): Error | null {
  return state().error;
}

export function startupDone(): boolean {
  return state().done;
}
