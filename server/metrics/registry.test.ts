// The registry on its own, read fresh: names and units in Prometheus's style, labels from closed lists only, and the
// database's counts read at each scrape (R-metrics-names, R-metrics-labels, R-metrics-process).
import { describe, expect, it } from "vitest";
import { createMetrics, type Readers } from "./registry";

const readers = (over: Partial<Readers> = {}): Readers => ({
  runsByStatus: async () => [
    { status: "running", runs: 2 },
    { status: "done", runs: 5 },
  ],
  queueDepth: async () => ({ queue: "quiver-runs", waiting: 3 }),
  ...over,
});

/** The sample lines of the text format (no HELP or TYPE), as name{labels} → value. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

describe("the studio's metrics registry", () => {
  it("R-metrics-names: counts steps, and observes a step's overhead as its time less the model's, in seconds", async () => {
    const metrics = createMetrics(readers());
    metrics.step(130, 100);
    metrics.step(40, 38);
    const read = samples((await metrics.read()).text);
    expect(read.get("quiver_run_steps_total")).toBe(2);
    expect(read.get("quiver_step_overhead_seconds_count")).toBe(2);
    expect(read.get("quiver_step_overhead_seconds_sum")).toBeCloseTo(0.032, 6);
    // 2 ms falls in the 2.5 ms bucket, 30 ms first in the 50 ms one.
    expect(read.get('quiver_step_overhead_seconds_bucket{le="0.001"}')).toBe(0);
    expect(read.get('quiver_step_overhead_seconds_bucket{le="0.0025"}')).toBe(1);
    expect(read.get('quiver_step_overhead_seconds_bucket{le="0.025"}')).toBe(1);
    expect(read.get('quiver_step_overhead_seconds_bucket{le="0.05"}')).toBe(2);
    expect(read.get('quiver_step_overhead_seconds_bucket{le="+Inf"}')).toBe(2);
  });

  it("R-metrics-labels: labels a tool call by its source's kind and outcome only, and a host restart by why", async () => {
    const metrics = createMetrics(readers());
    metrics.toolCall("tree", "ok", 12);
    metrics.toolCall("mcp", "timeout", 30_000);
    metrics.hostRestart("exited");
    const text = (await metrics.read()).text;
    const read = samples(text);
    expect(read.get('quiver_tool_call_seconds_count{source="tree",outcome="ok"}')).toBe(1);
    expect(read.get('quiver_tool_call_seconds_sum{source="mcp",outcome="timeout"}')).toBe(30);
    expect(read.get('quiver_tool_host_restarts_total{reason="exited"}')).toBe(1);
    // Every reason has a series from the start, at 0.
    expect(read.get('quiver_tool_host_restarts_total{reason="unanswered"}')).toBe(0);
    expect(read.get('quiver_tool_host_restarts_total{reason="replaced"}')).toBe(0);
    const labels = new Set([...text.matchAll(/[{,](\w+)="/g)].map((m) => m[1]));
    expect([...labels].sort()).toEqual(["le", "outcome", "queue", "reason", "source", "status"]);
  });

  it("R-metrics-process: reads runs by status and the queue's depth at each scrape, and leaves the depth out with no queue", async () => {
    let running = 2;
    let depth: { queue: string; waiting: number } | null = { queue: "quiver-runs", waiting: 3 };
    const metrics = createMetrics(readers({ runsByStatus: async () => [{ status: "running", runs: running }], queueDepth: async () => depth }));
    let read = samples((await metrics.read()).text);
    expect(read.get('quiver_runs{status="running"}')).toBe(2);
    expect(read.get('quiver_run_queue_depth{queue="quiver-runs"}')).toBe(3);
    running = 7;
    depth = null;
    read = samples((await metrics.read()).text);
    expect(read.get('quiver_runs{status="running"}')).toBe(7);
    expect([...read.keys()].some((name) => name.startsWith("quiver_run_queue_depth"))).toBe(false);
  });

  it("R-metrics-names: answers in Prometheus's text format, with HELP and TYPE for each metric", async () => {
    const { text, contentType } = await createMetrics(readers()).read();
    expect(contentType).toBe("text/plain; version=0.0.4; charset=utf-8");
    for (const [name, type] of [
      ["quiver_run_steps_total", "counter"],
      ["quiver_step_overhead_seconds", "histogram"],
      ["quiver_tool_call_seconds", "histogram"],
      ["quiver_tool_host_restarts_total", "counter"],
      ["quiver_runs", "gauge"],
      ["quiver_run_queue_depth", "gauge"],
    ]) {
      expect(text).toMatch(new RegExp(`^# HELP ${name} [A-Z].*\\.$`, "m"));
      expect(text).toContain(`# TYPE ${name} ${type}`);
    }
    // A fresh registry holds only the studio's own metrics: nothing registered into prom-client's global one.
    expect(text).not.toMatch(/^process_|^nodejs_/m);
  });
});
