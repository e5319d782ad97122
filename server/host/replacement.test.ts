// R-host-runaway and R-host-memory as the studio decides them, on the host's reports alone (no host runs here).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReplacementWatch, RUNAWAY_GRACE_S } from "./replacement";

const ENDED = "notifications/quiver/overrun_ended";
const timedOut = (id: number) => ({ "quiver/outcome": "timeout", "quiver/overrun": { id, timeout_s: 25 } });

describe("when a host that still answers is replaced", () => {
  let reasons: string[];
  let watch: ReplacementWatch;
  beforeEach(() => {
    vi.useFakeTimers();
    reasons = [];
    watch = new ReplacementWatch((why) => reasons.push(why));
  });
  afterEach(() => vi.useRealTimers());

  it("replaces the host when a timed-out call's end is not announced within the grace", () => {
    watch.answered("spin__loop", timedOut(1));
    vi.advanceTimersByTime(RUNAWAY_GRACE_S * 1000 - 1);
    expect(reasons).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reasons).toEqual(["spin__loop did not stop within 2 s of its 25 s timeout"]);
  });

  it("keeps the host when the end arrives after the timeout answer, or before it was read", () => {
    watch.answered("nap__short", timedOut(1));
    watch.notice(ENDED, { id: 1, tool: "nap__short" });
    watch.notice(ENDED, { id: 2, tool: "nap__short" });
    watch.answered("nap__short", timedOut(2));
    vi.advanceTimersByTime(10_000);
    expect(reasons).toEqual([]);
  });

  it("replaces the host at once over its soft memory limit, from an answer or from an overrun's end", () => {
    watch.answered("hog__keep", { "quiver/outcome": "ok", "quiver/memory": { rss_mb: 700, soft_mb: 512 } });
    expect(reasons).toEqual(["hog__keep left the tool host holding 700 MB, over its 512 MB soft limit"]);
    const other = new ReplacementWatch((why) => reasons.push(why));
    other.answered("hog__slow", timedOut(1));
    other.notice(ENDED, { id: 1, tool: "hog__slow", memory: { rss_mb: 600, soft_mb: 512 } });
    expect(reasons.at(-1)).toBe("hog__slow left the tool host holding 600 MB, over its 512 MB soft limit");
  });

  it("asks for one replacement only, and none once stopped", () => {
    watch.answered("spin__a", timedOut(1));
    watch.answered("spin__b", timedOut(2));
    vi.advanceTimersByTime(RUNAWAY_GRACE_S * 1000);
    expect(reasons).toHaveLength(1);
    const closed = new ReplacementWatch((why) => reasons.push(why));
    closed.answered("spin__c", timedOut(1));
    closed.stop();
    vi.advanceTimersByTime(RUNAWAY_GRACE_S * 1000);
    expect(reasons).toHaveLength(1);
  });
});
