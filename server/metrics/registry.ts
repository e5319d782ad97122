// The studio's Prometheus metrics (R-metrics-names): one prom-client Registry of Quiver's own, never prom-client's
// global one, so nothing a library registers lands in /api/metrics and a test can read a fresh registry of its own.
// The loop and the host record into it; what the database knows (runs by status, the queue's depth) is read at each
// scrape through `Readers`. Every label takes values from a closed list (R-metrics-labels). Edit when a metric is
// added; its rule and docs/api.md's list change with it.
import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** Where an operation comes from: the run's catalogue's kinds, a closed list (no tool names: R-metrics-labels). */
export const TOOL_SOURCES = ["system", "tree", "mcp", "agent"] as const;
export type ToolSource = (typeof TOOL_SOURCES)[number];
/** How a call ended, as its tool_result says. */
export const TOOL_OUTCOMES = ["ok", "refused", "failed", "transient", "timeout"] as const;
export type ToolOutcome = (typeof TOOL_OUTCOMES)[number];
/** Why a tool host was dropped and started again. */
export const HOST_RESTART_REASONS = ["exited", "unanswered", "replaced"] as const;
export type HostRestartReason = (typeof HOST_RESTART_REASONS)[number];

/** What a scrape asks the database, so every process of a studio answers the same. */
export type Readers = {
  /** Every run by status, counted in the database. */
  runsByStatus(): Promise<ReadonlyArray<{ status: string; runs: number }>>;
  /** The run queue's jobs waiting to be taken, by queue name; null where this process has no queue open. */
  queueDepth(): Promise<{ queue: string; waiting: number } | null>;
};

/**
 * Step overhead (a step's time less the model's) in seconds: from a millisecond, past mode (b)'s 10 ms and mode (a)'s
 * 100 ms targets, to a step that waited ten seconds.
 */
const OVERHEAD_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A tool call in seconds: a no-op's millisecond to a five-minute call. */
const TOOL_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

export type Metrics = ReturnType<typeof createMetrics>;

/** A registry holding every metric of the studio, reading the database's through `readers`. */
export function createMetrics(readers: Readers) {
  const registry = new Registry();
  const registers = [registry];
  const steps = new Counter({
    name: "quiver_run_steps_total",
    help: "Steps driven in this process: a model reply and the calls it asked for. Its rate is steps per second.",
    registers,
  });
  const stepOverhead = new Histogram({
    name: "quiver_step_overhead_seconds",
    help: "Each step's time less the model's own (request to last byte): the studio's work and the step's tool calls.",
    buckets: OVERHEAD_BUCKETS,
    registers,
  });
  const toolCalls = new Histogram<"source" | "outcome">({
    name: "quiver_tool_call_seconds",
    help: "Each tool call from its start to its result, retries included, by where its operation comes from and how it ended.",
    labelNames: ["source", "outcome"],
    buckets: TOOL_BUCKETS,
    registers,
  });
  const hostRestarts = new Counter<"reason">({
    name: "quiver_tool_host_restarts_total",
    help: "Tool hosts this process dropped and started again: exited (it died), unanswered (a call got no answer), replaced (over what a tool did).",
    labelNames: ["reason"],
    registers,
  });
  new Gauge<"status">({
    name: "quiver_runs",
    help: "Runs by status, counted in the database at each scrape, so every process of the studio answers the same.",
    labelNames: ["status"],
    registers,
    async collect() {
      const counted = await readers.runsByStatus();
      this.reset();
      for (const { status, runs } of counted) this.set({ status }, runs);
    },
  });
  new Gauge<"queue">({
    name: "quiver_run_queue_depth",
    help: "Runs waiting on the run queue for a process with room, as pg-boss last counted them (every few seconds).",
    labelNames: ["queue"],
    registers,
    async collect() {
      const depth = await readers.queueDepth();
      this.reset();
      if (depth) this.set({ queue: depth.queue }, depth.waiting);
    },
  });
  // Every status and reason reads 0 before its first event, so a rate or an alert has a series from the start.
  for (const reason of HOST_RESTART_REASONS) hostRestarts.inc({ reason }, 0);

  return {
    registry,
    /** One step of a run: its whole time and the model's part of it, in milliseconds. */
    step(stepMs: number, modelMs: number): void {
      steps.inc();
      stepOverhead.observe(Math.max(0, stepMs - modelMs) / 1000);
    },
    toolCall(source: ToolSource, outcome: ToolOutcome, ms: number): void {
      toolCalls.observe({ source, outcome }, ms / 1000);
    },
    hostRestart(reason: HostRestartReason): void {
      hostRestarts.inc({ reason });
    },
    /** The Prometheus text format, and the content type to send it with. */
    async read(): Promise<{ text: string; contentType: string }> {
      return { text: await registry.metrics(), contentType: registry.contentType };
    },
  };
}
