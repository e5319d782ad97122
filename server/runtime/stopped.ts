// The one reason a run stops before its loop is done: a person stopped it (cancelled: each call answers so and the
// run ends cancelled, R-call-stop), or this studio process is going away (abandoned: nothing more is written, and
// the run's rows stay as they are for whoever takes it over). A call's own timeout is not a stop (calls/bound.ts).
import type { Person } from "./shapes";

export type StopReason = "cancelled" | "abandoned";

/** What a stopped run's controller aborts with, its open waits end with, and its loop throws to unwind. */
export class RunStopped extends Error {
  constructor(
    readonly reason: StopReason,
    /** Who stopped it; null when the studio did. */
    readonly by: Person | null = null,
    /** What the model had written of its reply when the stop cut it off. */
    readonly partial = "",
  ) {
    super(reason === "abandoned" ? "The studio is stopping." : `${by?.name ?? "Someone"} stopped the run.`);
    this.name = "RunStopped";
  }
}
