// When a tool host that still answers must be replaced all the same: a timed-out call that goes on past a short
// grace (R-host-runaway), or a call that leaves the host over its soft memory limit (R-host-memory). Edit when the
// host reports something else that only a fresh host can cure.
//
// The studio decides, not the host: the host only says which timed-out call is still running (its timeout answer
// carries `quiver/overrun`) and when that call's thread ends (`notifications/quiver/overrun_ended`). A host whose
// tool holds the interpreter in C code (a regular expression backtracking, a huge sum) cannot run its own watch,
// and one the tool stopped or wedged cannot send anything; silence past the grace is enough for the studio to act.

/**
 * How long a timed-out call may go on before its host is replaced. The host answers TimeoutError from its watching
 * thread while the tool still runs, and Python cannot stop a thread: a tool that checks the clock or sleeps in
 * short steps returns within moments, while a busy loop would burn a core for ever. Two seconds let the first kind
 * finish and cost the second at most two core-seconds.
 */
export const RUNAWAY_GRACE_S = 2;
/** Ends announced before their timeout answer was read (the two race on the wire); a few suffice. */
const EARLY_ENDS_KEPT = 64;

type Memory = { rssMb: number; softMb: number };

function memoryOf(value: unknown): Memory | null {
  if (typeof value !== "object" || value === null) return null;
  const { rss_mb: rssMb, soft_mb: softMb } = value as Record<string, unknown>;
  return typeof rssMb === "number" && typeof softMb === "number" ? { rssMb, softMb } : null;
}

const overMemory = (tool: string, { rssMb, softMb }: Memory) =>
  `${tool} left the tool host holding ${rssMb} MB, over its ${softMb} MB soft limit`;

/** One host's watch: calls `replace` once, with why, when that host must go. */
export class ReplacementWatch {
  private readonly waiting = new Map<string, NodeJS.Timeout>();
  private readonly endedEarly = new Set<string>();
  private stopped = false;

  constructor(private readonly replace: (why: string) => void) {}

  /** Each call's answer, with its `_meta`, before the caller sees it. */
  answered(tool: string, meta: Record<string, unknown>): void {
    const memory = memoryOf(meta["quiver/memory"]);
    if (memory) return this.fire(overMemory(tool, memory));
    const overrun = meta["quiver/overrun"] as { id?: unknown; timeout_s?: unknown } | undefined;
    if (typeof overrun !== "object" || overrun === null || overrun.id === undefined) return;
    const id = String(overrun.id);
    if (this.endedEarly.delete(id)) return;
    const timer = setTimeout(() => {
      this.waiting.delete(id);
      this.fire(`${tool} did not stop within ${RUNAWAY_GRACE_S} s of its ${String(overrun.timeout_s)} s timeout`);
    }, RUNAWAY_GRACE_S * 1000);
    timer.unref();
    this.waiting.set(id, timer);
  }

  /** A notification of the host's own (`notifications/quiver/...`). */
  notice(method: string, params: Record<string, unknown>): void {
    if (method !== "notifications/quiver/overrun_ended") return;
    const id = String(params.id);
    const timer = this.waiting.get(id);
    if (timer) {
      clearTimeout(timer);
      this.waiting.delete(id);
    } else {
      this.endedEarly.add(id);
      if (this.endedEarly.size > EARLY_ENDS_KEPT) this.endedEarly.delete(this.endedEarly.values().next().value!);
    }
    const memory = memoryOf(params.memory);
    if (memory) this.fire(overMemory(String(params.tool), memory));
  }

  /** The host is gone or going: nothing more to watch. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }

  private fire(why: string): void {
    if (this.stopped) return;
    this.stop();
    this.replace(why);
  }
}
