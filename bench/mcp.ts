// The MCP figures, beside their targets. (a) A no-op MCP tool call through a run's pipeline against the official
// SDK's Client calling the same server (bench/mcp_server.mjs, written with the SDK's McpServer) directly, timed side
// by side in turns, over stdio and Streamable HTTP. "Through a run's pipeline" is what the loop does between two
// model replies (server/runtime/loop.ts): prepare the call, record it, permission and the call hook, the call through
// server/calls/ on the pool's one connection, the output cap, masking with the row's secret, the stored events, and
// for a tool not marked read-only the audit row; the pool's connection alone is timed too, to say where the time
// goes. Then a run's whole step against the loopback model, the model's own time taken out. (b) Listing a server
// of 200 tools and normalising every schema, as a run's start does (server/catalog/mcp.ts): the first listing, one
// after the list changed, and listings when nothing changed. Run: npm run bench:mcp
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { openDatabase, type Db } from "@/db/client";
import { createAgent } from "@/server/agents/store";
import { mcpSources, fromMcpTools } from "@/server/catalog/mcp";
import { closeAll } from "@/server/host";
import { McpPool } from "@/server/mcp/pool";
import { createServer, getServer } from "@/server/mcp/registry";
import { Runtime } from "@/server/runtime";
import { mcpServersOf, readSources, runCatalog } from "@/server/runtime/catalog";
import { prepare, recordCall, runTurn } from "@/server/runtime/dispatch";
import { EventLog } from "@/server/runtime/events";
import { keyCalls } from "@/server/runtime/journal";
import { journalWriter } from "@/server/runtime/journal-writer";
import { Run, type StepMetrics } from "@/server/runtime/run";
import { agentForRun, insertRun } from "@/server/runtime/store";
import { VOICE_TIMING } from "@/server/runtime/voice";
import { createSecret } from "@/server/secrets/store";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { loopbackProcess, type Fallback } from "./loopback";

const SERVER = path.join(process.cwd(), "bench", "mcp_server.mjs");
const CALLS = 1000;
const WARMUP = 200;
/** Calls timed on one side before the next side's turn: a busy machine and the JIT then weigh on every side alike. */
const BLOCK = 50;
/** No figure takes longer than this; one cut short says so. */
const BUDGET_MS = 90_000;
/** The pause between two calls as in a run: less than any model takes to reply. */
const PAUSE_MS = 2;
const TARGET_RATIO = 1.1;
const TARGET_LIST_P95_MS = 50;
const STEP_RUNS = 10;
const STEPS_PER_RUN = 20;
const LISTINGS = 100;
const CHANGES = 10;

type Stats = { quantile(values: number[], q: number): number; fmtMs(ms: number): string };
/** `drain`: what the side leaves to finish after its calls (a run's stored events), timed into its mean. */
type Side = { label: string; call: () => Promise<void>; drain?: () => Promise<void>; close?: () => Promise<void> };
type Timings = { samples: number[]; total: number };
type Bench = { db: Db; pool: McpPool; tree: string; dataDir: string; token: string; stats: Stats };

const median = (s: Stats, values: number[]) => s.quantile(values, 0.5);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `work`, or an error naming `what` once BUDGET_MS have passed without it. */
async function within<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${BUDGET_MS / 1000} s`)), BUDGET_MS)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
const verdict = (met: boolean) => (met ? "meets it" : "MISSES it");

/**
 * How calls follow one another. "as in a run": a model's reply comes between two calls of a run, and the run's
 * events are stored meanwhile, so each call starts once the previous one's are stored and PAUSE_MS have passed
 * (every side pauses alike, untimed: a process woken from a pause answers more slowly than a busy one). "back to
 * back": each call right after the last, storage competing with the calls for the one thread; the turn's total
 * then counts the storage left over, so total / calls is what a call costs in all.
 */
type Mode = "as in a run" | "back to back";

/** Each side's call timings, in turns of BLOCK calls, until each has `calls` or the budget is spent. */
async function inTurns(sides: Side[], calls: number, mode: Mode): Promise<{ timings: Timings[]; cut: boolean }> {
  const timings = sides.map(() => ({ samples: [] as number[], total: 0 }));
  const between = async (side: Side) => {
    await side.drain?.();
    await sleep(PAUSE_MS);
  };
  const end = performance.now() + BUDGET_MS;
  const forwards = sides.map((_, i) => i);
  const backwards = [...forwards].reverse();
  for (let done = 0; done < calls; done += BLOCK) {
    if (performance.now() > end) return { timings, cut: true };
    // Every other turn the other way round, so no side always follows the one that leaves the most work behind
    // (a run's pipeline leaves its stored events, the database's thread settling after them).
    for (const i of (done / BLOCK) % 2 === 0 ? forwards : backwards) {
      const side = sides[i]!;
      const turn = performance.now();
      for (let n = 0; n < Math.min(BLOCK, calls - done); n++) {
        if (mode === "as in a run") await between(side);
        const start = performance.now();
        await side.call();
        timings[i]!.samples.push(performance.now() - start);
      }
      await side.drain?.();
      timings[i]!.total += mode === "as in a run" ? timings[i]!.samples.slice(-BLOCK).reduce((sum, ms) => sum + ms, 0) : performance.now() - turn;
    }
  }
  return { timings, cut: false };
}

/** The official SDK's Client on its own connection to the same server. */
async function sdkSide(b: Bench, http: string | null): Promise<Side> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  const transport = http
    ? new StreamableHTTPClientTransport(new URL(http))
    : new StdioClientTransport({ command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? "", BENCH_TOKEN: b.token }, stderr: "inherit" });
  await client.connect(transport);
  await client.listTools();
  return {
    label: "the SDK's Client, directly",
    call: async () => {
      const result = await client.callTool({ name: "noop", arguments: {} });
      if (result.isError) throw new Error("the SDK's call of noop failed");
    },
    close: () => client.close(),
  };
}

/** A run of an agent given `tool` of the server, built as Runtime.start builds one, with its catalog read once. */
async function benchRun(b: Bench, server: string, tool: string): Promise<Run> {
  const place = { tree: b.tree, workspace: workspaceDir(b.dataDir), mcp: b.pool };
  const model = { provider: "openai-compatible", model: "loopback", base_url: "http://127.0.0.1:9/v1" };
  const made = await createAgent(b.db, "bench", { name: `bench ${tool} ${server.slice(0, 8)}`, model, tools: [{ entry: `${server}#${tool}` }] }, place);
  const { declaration, version } = await agentForRun(b.db, made.id);
  const row = await insertRun(b.db, { agentId: made.id, agentVersion: version, declaration, startedBy: "bench" });
  const settings = { voice: VOICE_TIMING, modelRetries: 0, modelRetryMs: 0, maxSteps: 50, canAsk: false, retryMs: 0 };
  const deps = { db: b.db, log: new EventLog(b.db), tree: b.tree, dataDir: b.dataDir, settings, mcp: b.pool };
  const run = new Run(row.id, { id: made.id, name: declaration.name, version }, declaration, "bench", { tools: [], operations: [], withheld: [], problems: [] }, deps);
  const mcp = { db: b.db, pool: b.pool, only: mcpServersOf(declaration), provider: "openai-compatible" as const };
  const { sources, extras, treeError } = await readSources(b.tree, mcp);
  run.catalog = runCatalog(declaration, sources, extras, treeError);
  if (!run.operation(tool)) throw new Error(`the run was not offered ${tool}: ${run.catalog.problems.join("; ") || "no reason given"}`);
  return run;
}

/** What the loop does with one call of the model's reply (server/runtime/loop.ts), its result awaited. */
async function pipelineSide(b: Bench, server: string, tool: string): Promise<Side> {
  const run = await benchRun(b, server, tool);
  let n = 0;
  return {
    label: tool === "noop" ? "a run's pipeline (read-only: no audit row)" : "a run's pipeline, with its audit row",
    call: async () => {
      const p = prepare(run, { callId: `call-${++n}`, name: tool, input: "{}" });
      // A step of its own in the run's journal, as the loop gives each model turn's calls (the turn's row is the model's).
      run.journalStep++;
      keyCalls(run, [p]);
      void recordCall(run, p);
      const [result] = await runTurn(run, [p]);
      if (result?.outcome !== "ok") throw new Error(`${tool} answered ${result?.outcome}: ${result?.text}`);
    },
    // Its events and its journal's writes (a call's result is stored after the call answers: R-journal-group).
    drain: async () => {
      await Promise.all([run.deps.log.flushed(), journalWriter(b.db).flushed()]);
    },
  };
}

function poolSide(b: Bench, server: string): Side {
  return {
    label: "the pool's connection alone (pool.callTool)",
    call: async () => {
      const result = await b.pool.callTool(b.db, server, "noop", {});
      if (result.isError) throw new Error("noop failed through the pool");
    },
  };
}

/** (a) on one transport: every side against the same server, in turns, as in a run and back to back. */
async function callFigure(b: Bench, title: string, server: string, http: string | null): Promise<number> {
  const sdk = await sdkSide(b, http);
  const sides = [await pipelineSide(b, server, "noop"), await pipelineSide(b, server, "noop_write"), poolSide(b, server), sdk];
  const fmt = b.stats.fmtMs;
  let sdkMedian = NaN;
  try {
    await inTurns(sides, WARMUP, "back to back");
    console.log(title);
    for (const mode of ["as in a run", "back to back"] as const) {
      const started = performance.now();
      const { timings, cut } = await inTurns(sides, CALLS, mode);
      const took = performance.now() - started;
      const medians = timings.map((t) => median(b.stats, t.samples));
      const means = timings.map((t) => t.total / t.samples.length);
      const cutShort = cut ? `, cut at the ${BUDGET_MS / 1000} s budget` : "";
      console.log(`  ${mode}: ${timings[0]!.samples.length} calls a side in turns of ${BLOCK}, ${(took / 1000).toFixed(1)} s${cutShort}`);
      sides.forEach((side, i) => {
        const p95 = b.stats.quantile(timings[i]!.samples, 0.95);
        const ratio = i === 3 ? "" : `   ratio: median ${(medians[i]! / medians[3]!).toFixed(2)}, mean ${(means[i]! / means[3]!).toFixed(2)}`;
        console.log(`    ${side.label.padEnd(46)} median ${fmt(medians[i]!)}, p95 ${fmt(p95)}, mean ${fmt(means[i]!)}${ratio}`);
      });
      const ratio = medians[0]! / medians[3]!;
      if (mode === "as in a run") sdkMedian = medians[3]!;
      const storing = mode === "back to back" ? `; storing a call's events costs ${fmt(means[0]! - means[2]!)} a call beyond the pool's (mean)` : "";
      console.log(`    a run's call / the SDK's call, median: ${ratio.toFixed(2)}   target: ≤ ${TARGET_RATIO}: ${verdict(ratio <= TARGET_RATIO)}${storing}`);
    }
    return sdkMedian;
  } finally {
    for (const side of sides) await side.close?.();
  }
}

/** Each run's model calls noop `steps` times, then answers. */
const noopSteps: Fallback<{ steps: number }> = (request, { call, text }, { steps }) =>
  request.body.messages.filter((m) => m.role === "tool").length < steps ? call("noop", {}) : text("Done.");

/** A run's whole step (the model's reply and its one call), against the loopback model, the model's time taken out. */
async function stepFigure(b: Bench, server: string, sdkMedian: number): Promise<void> {
  const model = await loopbackProcess(noopSteps, { steps: STEPS_PER_RUN });
  const steps: StepMetrics[] = [];
  const runtime = new Runtime({ db: b.db, tree: b.tree, dataDir: b.dataDir, mcp: b.pool, modelRetries: 0, onStep: (step) => steps.push(step) });
  try {
    const place = { tree: b.tree, workspace: workspaceDir(b.dataDir), mcp: b.pool };
    const declaration = { name: "bench steps", model: { provider: "openai-compatible", model: "loopback", base_url: model.url }, tools: [{ entry: `${server}#noop` }] };
    const { id } = await createAgent(b.db, "bench", declaration, place);
    const end = performance.now() + BUDGET_MS;
    for (let i = 0; i < STEP_RUNS + 1 && performance.now() < end; i++) {
      if (i === 1) steps.length = 0; // the first run warms up
      const { runId } = await runtime.start({ agentId: id, message: "Call noop.", user: { id: "bench" } });
      await within(runtime.idle(runId), "a run of the step figure");
    }
    const own = steps.map((s) => s.ms - s.modelMs);
    const s = b.stats;
    console.log(`(a′) a run's whole step around one noop call over stdio, against the loopback model: ${steps.length} steps`);
    console.log(`    step − the model's own time: median ${s.fmtMs(median(s, own))}, p95 ${s.fmtMs(s.quantile(own, 0.95))}; the SDK's call above: ${s.fmtMs(sdkMedian)} (for scale; no target)`);
  } finally {
    await runtime.shutdown();
    model.stop();
  }
}

async function timed(times: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  const end = performance.now() + BUDGET_MS;
  for (let i = 0; i < times && performance.now() < end; i++) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** (b) a server of 200 tools listed as a run's start lists it, and its list re-read from the server. */
async function listFigure(b: Bench): Promise<void> {
  const row = await createServer(b.db, "bench", { name: "bench 200", transport: { type: "stdio", command: process.execPath, args: [SERVER], env: { BENCH_TOOLS: "200" } } });
  const s = b.stats;
  const started = performance.now();
  const test = await b.pool.testConnection(b.db, row.id);
  if (!test.ok) throw new Error(test.sentence);
  const startMs = performance.now() - started;
  const list = () => mcpSources({ db: b.db, pool: b.pool, only: [row.id], provider: "openai" });
  const first = await timed(1, async () => {
    const [source] = await list();
    if (source?.operations.length !== 203) throw new Error(`the listing offered ${source?.operations.length} tools: ${source?.warnings.join("; ")}`);
  });
  const unchanged = await timed(LISTINGS, list);
  const server = await getServer(b.db, row.id);
  const reread = await timed(LISTINGS / 2, async () => fromMcpTools(server, (await b.pool.listTools(b.db, row.id, { refresh: true })).tools, "openai"));
  const changed: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    await b.pool.callTool(b.db, row.id, "reword", {});
    // The server's notifications/tools/list_changed drops the connection's list: the next listing reads it again.
    for (let waited = 0; b.pool.status(row.id).toolCount !== null; waited += 5) {
      if (waited > 5_000) throw new Error("the server's list_changed did not arrive within 5 s");
      await sleep(5);
    }
    changed.push(...(await timed(1, list)));
  }
  const line = (values: number[]) => `median ${s.fmtMs(median(s, values))}, p95 ${s.fmtMs(s.quantile(values, 0.95))}`;
  const p95 = s.quantile(unchanged, 0.95);
  console.log(`(b) listing a server of 200 tools (203 with noop, noop_write, reword) and normalising every schema, as a run's start does`);
  console.log(`    starting the server and reading its list (Test connection): ${s.fmtMs(startMs)}`);
  console.log(`    the first listing in this process:                ${s.fmtMs(first[0]!)}`);
  console.log(`    after the list changed (list_changed, re-read):  ${line(changed)}   (${changed.length} changes)`);
  console.log(`    nothing changed, the list re-read from the server: ${line(reread)}`);
  console.log(`    nothing changed:                                  ${line(unchanged)}   target: p95 ≤ ${TARGET_LIST_P95_MS} ms: ${verdict(p95 <= TARGET_LIST_P95_MS)}`);
}

/** Streamable HTTP: the same server in its own process, answering on 127.0.0.1. */
async function httpServer(token: string): Promise<{ url: string; stop(): void }> {
  const env = { PATH: process.env.PATH ?? "", BENCH_TOKEN: token } as Record<string, string> as NodeJS.ProcessEnv;
  const child = spawn(process.execPath, [SERVER, "http"], { stdio: ["ignore", "pipe", "inherit"], env });
  const started = new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`the HTTP server exited with ${code}`)));
  });
  const url = await within(started, "the HTTP server's start").catch((error: unknown) => {
    child.kill();
    throw error;
  });
  return { url, stop: () => child.kill() };
}

async function main() {
  const stats = (await import(path.join(process.cwd(), "bench", "stats.mjs"))) as Stats;
  const scratch = mkdtempSync(path.join(tmpdir(), "quiver-bench-mcp-"));
  const tree = path.join(scratch, "tools");
  const dataDir = path.join(scratch, "data");
  // What reads the data folder from the environment (a catalog's host among them) uses the scratch one, never the
  // checkout's .quiver (R-bench-scratch).
  process.env.QUIVER_DATA_DIR = dataDir;
  mkdirSync(tree, { recursive: true });
  process.env.QUIVER_SECRET_KEY ??= "00".repeat(32);
  const database = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined });
  const pool = new McpPool({ dataDir });
  const token = randomBytes(16).toString("hex");
  const b: Bench = { db: database.db, pool, tree, dataDir, token, stats };
  const http = await httpServer(token);
  try {
    console.log(`bench:mcp on ${database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : "PGlite"}; the machine's load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
    await createSecret(b.db, "bench", { name: "BENCH_TOKEN", value: token });
    const stdio = await createServer(b.db, "bench", { name: "bench stdio", transport: { type: "stdio", command: process.execPath, args: [SERVER], env: { BENCH_TOKEN: "${BENCH_TOKEN}" } } });
    const overHttp = await createServer(b.db, "bench", { name: "bench http", transport: { type: "http", url: http.url, headers: { "X-Bench-Token": "${BENCH_TOKEN}" } } });
    const sdkMedian = await callFigure(b, "(a) a no-op MCP call over stdio (the studio's server sandboxed where bubblewrap works)", stdio.id, null);
    await callFigure(b, "(a) a no-op MCP call over Streamable HTTP", overHttp.id, http.url);
    await stepFigure(b, stdio.id, sdkMedian);
    await listFigure(b);
  } finally {
    http.stop();
    await pool.closeAll();
    await closeAll();
    await database.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
