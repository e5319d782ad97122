// The runtime's figures beside the floor's: 100 concurrent runs of 5 tool calls each against the loopback model,
// through the real loop, the real Python tool host and an embedded database (PGlite; PostgreSQL when DATABASE_URL
// is set, where the database's work happens outside the studio's event loop), then the same 100 runs on the floor
// (bench/floor.ts: the AI SDK and the official MCP SDK's Client to the same host, nothing of Quiver's), in the
// same process and period. For each: steps per second, CPU per step (this process and its tool host's subtree,
// from /proc), and each step's overhead once the model's own time is taken out; then the ratios and the targets.
// Run twice: (a) the model answers at once, so all 100 runs want the CPU together; (b) it answers in 0–2 s, as a
// model server does. The loopback runs in a process of its own, so its work is charged to neither side. The whole
// process tree's peak memory during the studio's 100 runs is sampled too (its Python host counted), and a count
// proves every step was stored. The checkout is left as it was: everything is written under os.tmpdir().
// It runs under the studio server's malloc settings (R-boot-malloc), starting itself again with them when they are not set.
// Run: npm run bench:runs (BENCH_ROUNDS=n repeats each batch n times, studio and floor in turns; for a profile,
// BENCH_ONLY=a runs only mode (a) and BENCH_FLOOR=off leaves the floor out).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
import { startFloor, type Floor } from "./floor";
import { childrenMatching, cpuNow, rssPeak, subtree } from "./floor-procs";
import { concurrentRuns, loopbackProcess, PING, pingUntil } from "./loopback";

const RUNS = 100;
const CALLS = 5;
const WARMUP = 5;
const ROUNDS = Math.max(1, Math.min(5, Number(process.env.BENCH_ROUNDS ?? 1) || 1));
const MESSAGE = "Ping five times.";
const TARGET = { cpuMs: 2, cpuRatio: 1.5, p95a: 100, p95b: 10, treeMb: 700 };
/** Stored events per run: run_started, the user's message, CALLS + 1 assistant messages, 3 per call, the final status. */
const EVENTS_PER_RUN = 2 + (CALLS + 1) + 3 * CALLS + 1;
const ALL_SCENARIOS = [
  { key: "a", label: "(a) the model answers at once: all 100 runs want the CPU at the same time", latencyMs: 0, p95: TARGET.p95a },
  { key: "b", label: "(b) the model answers in 0–2 s, as a model server does", latencyMs: 2_000, p95: TARGET.p95b },
];
const SCENARIOS = ALL_SCENARIOS.filter((s) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(",").includes(s.key));
const WITH_FLOOR = process.env.BENCH_FLOOR !== "off";

type Stats = { quantile(values: number[], q: number): number; fmtMs(ms: number): string };
type Batch = { steps: StepMetrics[]; ms: number; cpu: { self: number; children: number } };

const TOOL = `"""The benchmark's tool."""


${PING}`;

async function stored(db: Db, ids: string[]) {
  const rows = await db.select({ type: runEvents.type, n: count() }).from(runEvents).where(inArray(runEvents.runId, ids)).groupBy(runEvents.type);
  const of = (type: string) => rows.find((r) => r.type === type)?.n ?? 0;
  return { total: rows.reduce((sum, r) => sum + r.n, 0), results: of("tool_result"), done: of("status") };
}

/** Every path under a folder, for the check that the checkout is left as it was. */
function listing(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

/** `work` timed, with the CPU of this process and of `pids` it used. */
async function measured(pids: Set<number>, work: () => Promise<void>): Promise<Omit<Batch, "steps">> {
  const cpu = cpuNow(pids);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const after = cpuNow(pids);
  return { ms, cpu: { self: after.self - cpu.self, children: after.children - cpu.children } };
}

function merge(batches: Batch[]): Batch {
  return {
    steps: batches.flatMap((b) => b.steps),
    ms: batches.reduce((sum, b) => sum + b.ms, 0),
    cpu: { self: batches.reduce((sum, b) => sum + b.cpu.self, 0), children: batches.reduce((sum, b) => sum + b.cpu.children, 0) },
  };
}

/**
 * The malloc settings `npm start` gives the studio's server (R-boot-malloc), as this process has them; or null once this
 * benchmark has run again in a process that has them, when this one did not. glibc reads them only as a process starts,
 * and without them this process was not the studio whose memory the target is about (about 100 MiB more at the peak).
 */
async function withStudioMalloc(): Promise<string | null> {
  type ServerProcess = { serverEnv(env: Partial<NodeJS.ProcessEnv>): NodeJS.ProcessEnv };
  const { serverEnv } = (await import(path.join(process.cwd(), "scripts", "server-process.mjs"))) as ServerProcess;
  const env = serverEnv(process.env);
  if (Object.keys(env).every((key) => process.env[key] === env[key])) {
    return Object.keys(serverEnv({}))
      .map((key) => `${key}=${process.env[key]}`)
      .join(" ");
  }
  const again = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env, stdio: "inherit" });
  process.exitCode = again.status ?? 1;
  return null;
}

async function main() {
  const malloc = await withStudioMalloc();
  if (malloc === null) return;
  const { quantile, fmtMs } = (await import(path.join(process.cwd(), "bench", "stats.mjs"))) as Stats;
  const checkout = path.join(process.cwd(), ".quiver");
  const before = listing(checkout);
  const scratch = mkdtempSync(path.join(tmpdir(), "quiver-bench-runs-"));
  const tree = path.join(scratch, "tools");
  const dataDir = path.join(scratch, "data");
  // Every part of the studio that reads the data folder from the environment (the catalog's host among them) uses
  // the scratch one, not the checkout's .quiver.
  process.env.QUIVER_DATA_DIR = dataDir;
  mkdirSync(tree, { recursive: true });
  writeFileSync(path.join(tree, "bench.py"), TOOL);
  process.env.QUIVER_SECRET_KEY ??= "00".repeat(32);
  const database = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined });
  const model = await loopbackProcess(pingUntil, { calls: CALLS, ping: "bench__ping" });
  let steps: StepMetrics[] = [];
  const runtime = new Runtime({ db: database.db, tree, dataDir, modelRetries: 0, onStep: (step) => steps.push(step) });
  let floor: Floor | null = null;
  let complete = true;
  let peak = { treeMb: 0, selfMb: 0 };
  try {
    if (WITH_FLOOR) floor = await startFloor({ tree, dataDir: path.join(scratch, "floor-data"), baseUrl: model.url, maxSteps: CALLS + 2 });
    const floorPids = floor ? subtree([floor.pid]) : new Set<number>();
    console.log(
      `${RUNS} concurrent runs × ${CALLS} tool calls, ${ROUNDS} round(s): loopback model (own process), Python tool host, ${database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : "PGlite"}; the machine's load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    );
    console.log(`  malloc as the studio's server has it (R-boot-malloc): ${malloc}`);
    console.log(`  floor: the AI SDK's streamText (@ai-sdk/openai-compatible) to the same loopback, each call through the official MCP SDK's Client (@modelcontextprotocol/sdk, stdio) to the same Python host, started by server/host/command.ts; no database, permissions or events`);
    for (const scenario of SCENARIOS) {
      const modelId = `loopback-${scenario.latencyMs}`;
      const { id: agentId } = await createAgent(
        database.db,
        "bench",
        { name: `bench ${scenario.latencyMs}`, model: { provider: "openai-compatible", model: modelId, base_url: model.url }, tools: [{ entry: "tools/bench.py" }] },
        { tree, workspace: workspaceDir(dataDir) },
      );
      for (let i = 0; i < WARMUP; i++) {
        await concurrentRuns(runtime, agentId, 1, { id: "bench" });
        await floor?.run(modelId, MESSAGE, () => undefined);
      }
      // The studio's own children: its tool host (bubblewrap and Python under it), not the loopback, not the floor's.
      const studioPids = subtree(childrenMatching(/./).filter((pid) => !floorPids.has(pid) && !/loopback-model/.test(readCmd(pid))));
      const studio: Batch[] = [];
      const floors: Batch[] = [];
      let ids: string[] = [];
      const lag = monitorEventLoopDelay({ resolution: 1 });
      for (let round = 0; round < ROUNDS; round++) {
        steps = [];
        lag.enable();
        const memory = rssPeak(studioPids);
        // For a profile (--cpu-prof): the studio's batch as the profile's clock counts it (µs, monotonic).
        if (process.env.BENCH_WINDOW) console.error(`window start ${process.hrtime.bigint() / 1000n}`);
        const timedStudio = await measured(studioPids, async () => {
          ids = [...ids, ...(await concurrentRuns(runtime, agentId, RUNS, { id: "bench" })).ids];
        });
        if (process.env.BENCH_WINDOW) console.error(`window end ${process.hrtime.bigint() / 1000n}`);
        const mem = memory.stop();
        lag.disable();
        peak = { treeMb: Math.max(peak.treeMb, mem.treeMb), selfMb: Math.max(peak.selfMb, mem.selfMb) };
        studio.push({ steps, ...timedStudio });
        if (!floor) continue;
        const floorSteps: StepMetrics[] = [];
        const timedFloor = await measured(floorPids, async () => {
          await Promise.all(Array.from({ length: RUNS }, () => floor!.run(modelId, MESSAGE, (s) => floorSteps.push(s))));
        });
        floors.push({ steps: floorSteps, ...timedFloor });
      }
      const ours = merge(studio);
      const base = merge(floors);
      const perStep = (b: Batch) => (b.cpu.self + b.cpu.children) / b.steps.length;
      const rate = (b: Batch) => (b.steps.length / b.ms) * 1000;
      const overhead = (b: Batch) => b.steps.map((s) => s.ms - s.modelMs);
      const q = (b: Batch, at: number) => quantile(overhead(b), at);
      const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
      const cpuOurs = perStep(ours);
      const cpuBase = perStep(base);
      const met = (ok: boolean) => (ok ? "meets it" : "MISSES it");
      const cpuLine = (b: Batch) => `${fmtMs(perStep(b))} (node ${fmtMs(b.cpu.self / b.steps.length)} + host ${fmtMs(b.cpu.children / b.steps.length)})`;
      console.log(scenario.label);
      console.log(`                               studio                               floor                                studio / floor`);
      console.log(`    steps/s                    ${rate(ours).toFixed(0).padEnd(36)} ${rate(base).toFixed(0).padEnd(36)} ${ratio(rate(ours), rate(base))}`);
      console.log(`    CPU per step               ${cpuLine(ours).padEnd(36)} ${cpuLine(base).padEnd(36)} ${ratio(cpuOurs, cpuBase)}`);
      console.log(`    overhead per step, median  ${fmtMs(q(ours, 0.5)).padEnd(36)} ${fmtMs(q(base, 0.5)).padEnd(36)} ${ratio(q(ours, 0.5), q(base, 0.5))}`);
      console.log(`    overhead per step, p95     ${fmtMs(q(ours, 0.95)).padEnd(36)} ${fmtMs(q(base, 0.95)).padEnd(36)} ${ratio(q(ours, 0.95), q(base, 0.95))}`);
      console.log(`    the model's own time per step, median: studio ${fmtMs(quantile(ours.steps.map((s) => s.modelMs), 0.5))}, floor ${fmtMs(quantile(base.steps.map((s) => s.modelMs), 0.5))}; the tool call, median: studio ${fmtMs(quantile(ours.steps.map((s) => s.toolMs), 0.5))} (its journal row and tool_started included), floor ${fmtMs(quantile(base.steps.map((s) => s.toolMs), 0.5))}`);
      console.log(`    the studio's event-loop delay: median ${fmtMs(lag.percentile(50) / 1e6)}, p95 ${fmtMs(lag.percentile(95) / 1e6)}; its CPU: ${(((ours.cpu.self + ours.cpu.children) / ours.ms) * 100).toFixed(0)}% of a core (load average now ${os.loadavg()[0]!.toFixed(1)})`);
      if (scenario.key === "a") {
        console.log(`    target: studio CPU per step ≤ ${TARGET.cpuMs} ms: ${met(cpuOurs <= TARGET.cpuMs)}; ≤ ${TARGET.cpuRatio}× the floor's: ${met(cpuOurs <= TARGET.cpuRatio * cpuBase)}`);
      }
      console.log(`    target: overhead p95 ≤ ${scenario.p95} ms: ${met(q(ours, 0.95) <= scenario.p95)}`);
      const c = await stored(database.db, ids);
      const n = RUNS * ROUNDS;
      console.log(`    stored: ${c.total} events of ${n * EVENTS_PER_RUN}; ${c.results} tool results of ${n * CALLS}; ${c.done} runs done of ${n}`);
      if (c.total !== n * EVENTS_PER_RUN || c.results !== n * CALLS || c.done !== n) complete = false;
      if (base.steps.length !== n * CALLS) console.log(`    the floor made ${base.steps.length} steps of ${n * CALLS}: its figures are of those`);
    }
    console.log(
      `memory: the whole process tree during the studio's ${RUNS} concurrent runs (this process and its Python host; the loopback and the floor's host not counted), peak RSS ${peak.treeMb.toFixed(0)} MiB, this process alone ${peak.selfMb.toFixed(0)} MiB   target: ≤ ${TARGET.treeMb} MiB: ${peak.treeMb <= TARGET.treeMb ? "meets it" : "MISSES it"}`,
    );
  } finally {
    await floor?.close();
    await runtime.shutdown();
    model.stop();
    await closeAll();
    await database.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  const after = listing(checkout);
  const added = after.filter((p) => !before.includes(p));
  console.log(added.length === 0 ? "the checkout's .quiver/ is as it was before the run" : `the run wrote into the checkout's .quiver/: ${added.join(", ")}`);
  if (added.length > 0) process.exitCode = 1;
  if (!complete) {
    console.error("Not every step was stored.");
    process.exitCode = 1;
  }
}

function readCmd(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
