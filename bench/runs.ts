// The runtime's figures: 100 concurrent runs of 5 tool calls each against the loopback model, through the real
// loop, the real Python tool host and an embedded database (PGlite; PostgreSQL when DATABASE_URL is set, where the
// database's work happens outside the studio's event loop): total time, steps per second, the p95 of each
// step's overhead once the model's own time is taken out, and a count proving every step was stored. Run twice:
// (a) the model answers at once, so all 100 runs want the CPU together; (b) it answers in 0–2 s, as a model server
// does. The loopback runs in a process of its own, so its work is not charged to the studio. Run: npm run bench:runs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { count, inArray } from "drizzle-orm";
import { openDatabase, type Db } from "@/db/client";
import { runEvents } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { closeAll } from "@/server/host";
import { Runtime } from "@/server/runtime";
import type { StepMetrics } from "@/server/runtime/run";
import { concurrentRuns, loopbackProcess, PING, pingUntil } from "./loopback";

const RUNS = 100;
const CALLS = 5;
const WARMUP = 5;
const TARGET_P95_MS = 10;
/** Stored events per run: run_started, the user's message, CALLS + 1 assistant messages, 3 per call, the final status. */
const EVENTS_PER_RUN = 2 + (CALLS + 1) + 3 * CALLS + 1;
const SCENARIOS = [
  { label: "(a) the model answers at once: all 100 runs want the CPU at the same time", latencyMs: 0 },
  { label: "(b) the model answers in 0–2 s, as a model server does", latencyMs: 2_000 },
];

type Stats = { quantile(values: number[], q: number): number; fmtMs(ms: number): string };

const TOOL = `"""The benchmark's tool."""


${PING}`;

async function stored(db: Db, ids: string[]) {
  const rows = await db.select({ type: runEvents.type, n: count() }).from(runEvents).where(inArray(runEvents.runId, ids)).groupBy(runEvents.type);
  const of = (type: string) => rows.find((r) => r.type === type)?.n ?? 0;
  return { total: rows.reduce((sum, r) => sum + r.n, 0), results: of("tool_result"), done: of("status") };
}

async function main() {
  const { quantile, fmtMs } = (await import(path.join(process.cwd(), "bench", "stats.mjs"))) as Stats;
  const scratch = mkdtempSync(path.join(tmpdir(), "quiver-bench-runs-"));
  const tree = path.join(scratch, "tools");
  const dataDir = path.join(scratch, "data");
  mkdirSync(tree, { recursive: true });
  writeFileSync(path.join(tree, "bench.py"), TOOL);
  process.env.QUIVER_SECRET_KEY ??= "00".repeat(32);
  const database = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined });
  const model = await loopbackProcess(pingUntil, { calls: CALLS, ping: "bench__ping" });
  const steps: StepMetrics[] = [];
  const runtime = new Runtime({ db: database.db, tree, dataDir, modelRetries: 0, onStep: (step) => steps.push(step) });
  let complete = true;
  try {
    console.log(`${RUNS} concurrent runs × ${CALLS} tool calls: loopback model (own process), Python tool host, ${database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : "PGlite"}`);
    for (const scenario of SCENARIOS) {
      const { id: agentId } = await createAgent(
        database.db,
        "bench",
        {
          name: `bench ${scenario.latencyMs}`,
          model: { provider: "openai-compatible", model: `loopback-${scenario.latencyMs}`, base_url: model.url },
          tools: [{ entry: "tools/bench.py" }],
        },
        { tree, workspace: workspaceDir(dataDir) },
      );
      for (let i = 0; i < WARMUP; i++) await concurrentRuns(runtime, agentId, 1, { id: "bench" });
      steps.length = 0;

      const lag = monitorEventLoopDelay({ resolution: 1 });
      lag.enable();
      const cpu = process.cpuUsage();
      const { ids, ms: total } = await concurrentRuns(runtime, agentId, RUNS, { id: "bench" });
      const used = process.cpuUsage(cpu);
      lag.disable();

      const overhead = steps.map((s) => s.ms - s.modelMs);
      const own = steps.map((s) => s.ms - s.modelMs - s.toolMs);
      const count = await stored(database.db, ids);
      const med = (values: number[]) => fmtMs(quantile(values, 0.5));
      const p95 = (values: number[]) => fmtMs(quantile(values, 0.95));
      console.log(scenario.label);
      console.log(`    total ${fmtMs(total)}; ${steps.length} steps (a model reply and its call), ${((steps.length / total) * 1000).toFixed(0)} steps/s`);
      console.log(`    the model's own time per step (request to last byte): median ${med(steps.map((s) => s.modelMs))}; the tool call: median ${med(steps.map((s) => s.toolMs))}`);
      console.log(`    overhead per step, step − model:         median ${med(overhead)}, p95 ${p95(overhead)}   target: p95 ≤ ${TARGET_P95_MS} ms`);
      console.log(`    of which the runtime's own (− the call): median ${med(own)}, p95 ${p95(own)}`);
      console.log(
        `    the studio's process: ${(((used.user + used.system) / 1000 / total) * 100).toFixed(0)}% of a core busy; event-loop delay median ${fmtMs(lag.percentile(50) / 1e6)}, p95 ${fmtMs(lag.percentile(95) / 1e6)} (the machine's load average: ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`,
      );
      console.log(`    stored: ${count.total} events of ${RUNS * EVENTS_PER_RUN}; ${count.results} tool results of ${RUNS * CALLS}; ${count.done} runs done of ${RUNS}`);
      if (count.total !== RUNS * EVENTS_PER_RUN || count.results !== RUNS * CALLS || count.done !== RUNS) complete = false;
    }
  } finally {
    await runtime.shutdown();
    model.stop();
    await closeAll();
    await database.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  if (!complete) {
    console.error("Not every step was stored.");
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
