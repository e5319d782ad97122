// This process's metrics, as the loop and the host record into them and /api/metrics reads them (R-metrics-process).
// Held on globalThis: the runtime started at start-up and the route handler are different bundles of one process,
// and must count into one registry. Node's own process metrics (CPU, memory, event-loop delay, GC) join at the first
// read, so a process nobody scrapes pays nothing for them. The reader passes the database in, so the loop and the host,
// which only record, never load a database client through this module.
import { collectDefaultMetrics } from "prom-client";
import { count } from "drizzle-orm";
import type { Db } from "../../db/client";
import { runStatuses, runs } from "../../db/schema";
import { createMetrics, type HostRestartReason, type Metrics, type Readers, type ToolOutcome, type ToolSource } from "./registry";

type QueueDepthReader = () => Promise<{ queue: string; waiting: number }>;

const holder = globalThis as typeof globalThis & {
  __quiverMetrics?: { metrics: Metrics; defaults: boolean; queueDepth: QueueDepthReader | null; db: Db | null };
};

/**
 * The grouped count itself, apart so a test can ask PostgreSQL's plan for it: it reads `runs_status_idx` alone, not
 * every run's row (R-metrics-status-index).
 */
export function runsByStatusQuery(db: Db) {
  return db.select({ status: runs.status, runs: count() }).from(runs).groupBy(runs.status);
}

/** Every run by status, in one grouped count: the database's answer, the same from every process; 0 for a status none has. */
export async function storedRunsByStatus(db: Db): Promise<Array<{ status: string; runs: number }>> {
  const counted = await runsByStatusQuery(db);
  return runStatuses.map((status) => ({ status, runs: counted.find((row) => row.status === status)?.runs ?? 0 }));
}

function held() {
  if (!holder.__quiverMetrics) {
    const readers: Readers = {
      runsByStatus: async () => (holder.__quiverMetrics?.db ? storedRunsByStatus(holder.__quiverMetrics.db) : []),
      queueDepth: async () => (holder.__quiverMetrics?.queueDepth ? holder.__quiverMetrics.queueDepth() : null),
    };
    holder.__quiverMetrics = { metrics: createMetrics(readers), defaults: false, queueDepth: null, db: null };
  }
  return holder.__quiverMetrics;
}

export function recordStep(stepMs: number, modelMs: number): void {
  held().metrics.step(stepMs, modelMs);
}

export function recordToolCall(source: ToolSource, outcome: ToolOutcome, ms: number): void {
  held().metrics.toolCall(source, outcome, ms);
}

export function recordHostRestart(reason: HostRestartReason): void {
  held().metrics.hostRestart(reason);
}

/**
 * The run queue this process has open says how many jobs wait on it; the returned function forgets it again (only
 * if no other queue took its place meanwhile).
 */
export function readQueueDepthWith(reader: QueueDepthReader): () => void {
  const state = held();
  state.queueDepth = reader;
  return () => {
    if (state.queueDepth === reader) state.queueDepth = null;
  };
}

/** What /api/metrics answers: every metric of this process, with the database's counts read from `db` now. */
export async function readStudioMetrics(db: Db): Promise<{ text: string; contentType: string }> {
  const state = held();
  state.db = db;
  if (!state.defaults) {
    collectDefaultMetrics({ register: state.metrics.registry });
    state.defaults = true;
  }
  return state.metrics.read();
}
