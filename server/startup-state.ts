// How the studio's start went: still starting, done, or what went wrong once the database itself was
// fine (a studio key that does not match the secrets, say). Kept on globalThis because instrumentation
// and routes are bundled apart.
export type StartupFailure = { error: Error; sentence: string };

const holder = globalThis as typeof globalThis & { __quiverStartup?: { done: boolean; failure: StartupFailure | null } };

function state() {
  holder.__quiverStartup ??= { done: false, failure: null };
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
