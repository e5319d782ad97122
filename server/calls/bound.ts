// A call's bound as the studio keeps it: a timer that aborts the call past its seconds (plus a grace for a source
// that answers its own timeout), stopped while the call waits on the studio or a person (R-call-wait-not-counted).
// Edit when a bound needs a new way to stop or resume.

/**
 * The reason a call's own bound aborts it. Not a stop of the run: the run goes on and the model is told the call
 * timed out and may have partly run (R-call-timeout-answer), so it stays apart from the runtime's RunStopped.
 */
export class CallTimeout extends Error {
  constructor(readonly seconds: number) {
    super(`The call did not finish within ${seconds} s.`);
    this.name = "CallTimeout";
  }
}

/** What the model reads when a call's bound ends it (R-call-timeout-answer). */
export function timeoutText(name: string, bound: number): string {
  return `TimeoutError: ${name} did not finish within ${bound} s; it may have partly run, so check its effects before calling it again.`;
}

export type Clock = {
  /** Run `work` with the bound stopped, resuming it with what was left once `work` settles. */
  waiting<T>(work: () => Promise<T>): Promise<T>;
  clear(): void;
};

/** A clock that aborts `controller` with a CallTimeout after `seconds` (plus `graceMs`); none when `seconds` is null. */
export function startClock(controller: AbortController, seconds: number | null, graceMs = 0): Clock {
  if (seconds === null) return { waiting: (work) => work(), clear() {} };
  let left = seconds * 1000 + graceMs;
  let since = performance.now();
  let waits = 0;
  let cleared = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = () => {
    since = performance.now();
    timer = setTimeout(() => controller.abort(new CallTimeout(seconds)), Math.max(left, 0));
  };
  const pause = () => {
    if (waits++ > 0 || timer === null) return;
    clearTimeout(timer);
    timer = null;
    left -= performance.now() - since;
  };
  const resume = () => {
    if (--waits > 0 || cleared || controller.signal.aborted) return;
    arm();
  };
  arm();
  return {
    async waiting(work) {
      pause();
      try {
        return await work();
      } finally {
        resume();
      }
    },
    clear() {
      cleared = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
