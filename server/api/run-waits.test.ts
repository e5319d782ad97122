import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunEvent } from "@/server/runtime";
import { paced, type Paced } from "./run-waits";

const status = (s: string): RunEvent => ({ id: s, runId: "r", type: "status", data: { status: s }, at: "" });

/** Events handed out at the given delays (ms after the previous one). */
async function* timed(steps: [number, RunEvent][]): AsyncGenerator<RunEvent> {
  for (const [delay, event] of steps) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    yield event;
  }
}

async function kinds(events: AsyncGenerator<RunEvent>, beatMs: number, waitLimitMs: number): Promise<string[]> {
  const seen: string[] = [];
  for await (const got of paced(events, { beatMs, waitLimitMs }) as AsyncGenerator<Paced>) {
    seen.push(got.kind === "event" ? String(got.event.data.status) : got.kind);
  }
  return seen;
}

describe("following a run's waits (R-api-chat-wait, R-api-mcp-pending)", () => {
  it("beats while the run waits, and not while it runs", async () => {
    const seen = await kinds(timed([[0, status("running")], [0, status("waiting")], [130, status("running")], [60, status("done")]]), 50, 10_000);
    expect(seen[0]).toBe("running");
    expect(seen[1]).toBe("waiting");
    const beats = seen.slice(2, seen.indexOf("running", 2));
    expect(beats.length).toBeGreaterThanOrEqual(1);
    expect(beats.every((k) => k === "beat")).toBe(true);
    expect(seen.slice(seen.indexOf("running", 2))).toEqual(["running", "done"]);
  });

  it("counts the limit over every wait of the run, then ends", async () => {
    // Two waits of about 80 ms each against a 120 ms limit: the first does not reach it, the second does.
    const events = timed([[0, status("waiting")], [80, status("running")], [0, status("waiting")], [5_000, status("done")]]);
    const started = Date.now();
    const seen = await kinds(events, 1_000, 120);
    expect(seen).toEqual(["waiting", "running", "waiting", "limit"]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  afterEach(() => vi.restoreAllMocks());

  it("ends on the limit even when the timer fires before the clock reaches it", async () => {
    // Node may run a timer a millisecond before Date.now() shows its deadline; here every timer runs 3 ms early.
    const real = globalThis.setTimeout;
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => real(fn, Math.max(0, (ms ?? 0) - 3))) as typeof setTimeout);
    const seen = await kinds(timed([[0, status("waiting")], [5_000, status("done")]]), 1_000, 60);
    expect(seen).toEqual(["waiting", "limit"]);
  });
});
