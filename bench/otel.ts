// What run traces cost a step (R-otel-free, R-ops-otel-baseline): bench:runs' mode (a) workload (100 concurrent runs
// × 5 tool calls, the loopback model answering at once, the real Python host and PGlite) in one process, in rounds
// that take turns between
//   unset   the runtime as shipped, with no OTLP endpoint: each hook asks tracingOn() and gets false;
//   absent  the baseline: the same runtime's modules compiled a second time with every tracingOn() guard replaced by
//           the literal false, so the loop runs as if the hooks had never been written (server/telemetry/index.ts
//           stays imported, shared with the other copies: it loads nothing when untraced);
//   on      a third copy with each guard replaced by true and the endpoint set to a local OTLP receiver (its own
//           process, so its parsing is charged to no side): the cost of tracing, the export flushed inside the round.
// The copies share the database, the tool host and the loopback; the order of the three turns rotates each round.
// For each: CPU per step (this process and its tool host, from /proc) and steps/s, medians over the rounds, and the
// ratio to the baseline (the median of each round's own ratio). The target: unset within 3 % of absent.
// Run: npm run bench:otel (BENCH_ROUNDS=n rounds, 6 by default; BENCH_OTEL_ON=off leaves the traced copy out).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import Module from "node:module";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { createAgent } from "@/server/agents/store";
import { env } from "@/server/env";
import { closeAll } from "@/server/host";
import { Runtime } from "@/server/runtime";
import type { StepMetrics } from "@/server/runtime/run";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { flushTraces, tracingOn } from "@/server/telemetry";
import { childrenMatching, cpuNow, subtree } from "./floor-procs";
import { concurrentRuns, loopbackProcess, PING, pingUntil } from "./loopback";

const RUNS = 100;
const CALLS = 5;
const ROUNDS = Math.max(1, Math.min(15, Number(process.env.BENCH_ROUNDS ?? 6) || 6));
const WITH_ON = process.env.BENCH_OTEL_ON !== "off";
const TARGET = 1.03;
/** The guards the runtime's hooks sit behind (loop.ts, dispatch.ts, runtime.ts), as esbuild compiles them. */
const GUARD = /\(0,\s*import_telemetry\.tracingOn\)\(\)/g;
const GUARDS = 6;
const RUNTIME_DIR = path.join(process.cwd(), "server", "runtime") + path.sep;
const TOOL = `"""The benchmark's tool."""\n\n\n${PING}`;

type Mode = "unset" | "absent" | "on";
type Round = { steps: number; ms: number; cpuMs: number };
type RuntimeClass = typeof Runtime;

/**
 * The runtime's modules required again with each tracing guard replaced by `literal`: a copy beside the shipped one
 * (server/runtime has no lazy import of its own modules, so each copy keeps to itself once loaded).
 */
function runtimeWith(literal: "false" | "true"): RuntimeClass {
  const proto = (Module as unknown as { prototype: { _compile(content: string, filename: string): unknown } }).prototype;
  const compile = proto._compile;
  let replaced = 0;
  proto._compile = function (content: string, filename: string) {
    if (!filename.startsWith(RUNTIME_DIR)) return compile.call(this, content, filename);
    return compile.call(this, content.replace(GUARD, () => (replaced++, literal)), filename);
  };
  try {
    for (const key of Object.keys(require.cache)) if (key.startsWith(RUNTIME_DIR)) delete require.cache[key];
    const index = path.join(RUNTIME_DIR, "index.ts");
    const copy = (Module.createRequire(index)(index) as { Runtime: RuntimeClass }).Runtime;
    // A guard renamed by the compiler would leave both copies the same code and the comparison meaningless.
    if (replaced !== GUARDS) throw new Error(`found ${replaced} tracing guards in server/runtime, expected ${GUARDS}: update bench/otel.ts`);
    return copy;
  } finally {
    proto._compile = compile;
  }
}

/** A stand-in OTLP/HTTP collector in a process of its own: answers every export, counting the spans sent. */
async function receiverProcess(): Promise<{ url: string; spans(): Promise<number>; stop(): void }> {
  const script = `
    const http = require("node:http");
    let spans = 0;
    const server = http.createServer((req, res) => {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        if (req.url === "/count") return res.end(String(spans));
        spans += Buffer.concat(chunks).toString("utf8").split('"spanId"').length - 1;
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    server.listen(0, "127.0.0.1", () => process.stdout.write("http://127.0.0.1:" + server.address().port + "\\n"));`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the OTLP receiver did not start within 10 s")), 10_000);
    child.stdout.once("data", (chunk: Buffer) => (clearTimeout(timer), resolve(chunk.toString().trim())));
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`the OTLP receiver exited with ${code}`))));
  });
  return { url, spans: async () => Number(await (await fetch(`${url}/count`)).text()), stop: () => child.kill() };
}

/** Starts this benchmark again under the studio server's malloc settings (R-boot-malloc) when it lacks them; true then. */
async function againWithStudioMalloc(): Promise<boolean> {
  type ServerProcess = { serverEnv(env: Partial<NodeJS.ProcessEnv>): NodeJS.ProcessEnv };
  const { serverEnv } = (await import(path.join(process.cwd(), "scripts", "server-process.mjs"))) as ServerProcess;
  const wanted = serverEnv(process.env);
  if (Object.keys(wanted).every((key) => process.env[key] === wanted[key])) return false;
  const again = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env: wanted, stdio: "inherit" });
  process.exitCode = again.status ?? 1;
  return true;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main() {
  if (await againWithStudioMalloc()) return;
  // "unset" means unset: an endpoint in the caller's shell would trace the shipped copy too.
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  delete process.env.QUIVER_OTEL_CONTENT;
  const scratch = mkdtempSync(path.join(tmpdir(), "quiver-bench-otel-"));
  const tree = path.join(scratch, "tools");
  const dataDir = path.join(scratch, "data");
  process.env.QUIVER_DATA_DIR = dataDir;
  process.env.QUIVER_SECRET_KEY ??= "00".repeat(32);
  mkdirSync(tree, { recursive: true });
  writeFileSync(path.join(tree, "bench.py"), TOOL);
  // The studio's configuration is read once, here, with no endpoint: the shipped copy's tracingOn() stays false after.
  if (env().otel.traces || tracingOn()) throw new Error("tracing is on with no endpoint set");
  const receiver = WITH_ON ? await receiverProcess() : null;
  if (receiver) process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${receiver.url}/v1/traces`;

  const classes: Partial<Record<Mode, RuntimeClass>> = { unset: Runtime, absent: runtimeWith("false") };
  if (WITH_ON) classes.on = runtimeWith("true");
  const modes = Object.keys(classes) as Mode[];
  const database = await openDatabase({ dataDir });
  const model = await loopbackProcess(pingUntil, { calls: CALLS, ping: "bench__ping" });
  let steps: StepMetrics[] = [];
  // A queue each: copies sharing one would take each other's runs, and a round would time another copy's code.
  const runtimes = Object.fromEntries(
    modes.map((m) => [m, new classes[m]!({ db: database.db, tree, dataDir, queue: `bench-otel-${m}`, modelRetries: 0, onStep: (s) => steps.push(s) })]),
  ) as Record<Mode, Runtime>;
  const rounds: Record<Mode, Round[]> = { unset: [], absent: [], on: [] };
  try {
    const { id: agentId } = await createAgent(
      database.db,
      "bench",
      { name: "bench otel", model: { provider: "openai-compatible", model: "loopback-0", base_url: model.url }, tools: [{ entry: "tools/bench.py" }] },
      { tree, workspace: workspaceDir(dataDir) },
    );
    console.log(
      `${RUNS} concurrent runs × ${CALLS} tool calls (bench:runs mode (a)), ${ROUNDS} round(s) of ${modes.join(", ")} in turns; PGlite, Python tool host, loopback model (own process); load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    );
    // One whole batch each before measuring, so every copy's code is as warm as the others'.
    for (const m of modes) await concurrentRuns(runtimes[m], agentId, RUNS, { id: "bench" });
    if (WITH_ON) await flushTraces();
    const hostPids = subtree(childrenMatching(/./).filter((pid) => !/loopback-model|-e\s/.test(cmdline(pid))));
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < modes.length; i++) {
        const mode = modes[(round + i) % modes.length]!;
        steps = [];
        const cpu = cpuNow(hostPids);
        const started = performance.now();
        await concurrentRuns(runtimes[mode], agentId, RUNS, { id: "bench" });
        // The traced copy pays for sending its spans in its own round, not in the next copy's.
        if (mode === "on") await flushTraces();
        const ms = performance.now() - started;
        const after = cpuNow(hostPids);
        rounds[mode].push({ steps: steps.length, ms, cpuMs: after.self - cpu.self + after.children - cpu.children });
      }
    }
    const perStep = (r: Round) => r.cpuMs / r.steps;
    const rate = (r: Round) => (r.steps / r.ms) * 1000;
    const ratios = (mode: Mode, of: (r: Round) => number) => rounds[mode].map((r, i) => of(r) / of(rounds.absent[i]!));
    const paired = (mode: Mode, of: (r: Round) => number) => median(ratios(mode, of));
    // The rounds' own ratios from lowest to highest: how much of the figure is the machine's noise.
    const spread = (mode: Mode, of: (r: Round) => number) => `${Math.min(...ratios(mode, of)).toFixed(2)}–${Math.max(...ratios(mode, of)).toFixed(2)}`;
    console.log(`                 CPU per step (median)   steps/s (median)   CPU per step / absent   steps/s / absent   steps`);
    for (const m of modes) {
      const rs = rounds[m];
      const cpuRatio = m === "absent" ? "" : `${paired(m, perStep).toFixed(3)}×`;
      const rateRatio = m === "absent" ? "" : `${paired(m, rate).toFixed(3)}×`;
      console.log(
        `    ${m.padEnd(12)} ${`${median(rs.map(perStep)).toFixed(3)} ms`.padEnd(23)} ${median(rs.map(rate)).toFixed(0).padEnd(18)} ${cpuRatio.padEnd(23)} ${rateRatio.padEnd(18)} ${rs.reduce((n, r) => n + r.steps, 0)}`,
      );
    }
    // Each run: its invoke_agent span, a chat span per model turn (CALLS + 1) and an execute_tool span per call.
    const expected = (ROUNDS + 1) * RUNS * (2 + 2 * CALLS);
    if (receiver) console.log(`    the receiver got ${await receiver.spans()} spans of the ${expected} the traced copy's runs make`);
    const cost = paired("unset", perStep);
    console.log(
      `    unset beside absent: CPU per step ${((cost - 1) * 100).toFixed(1)} % (rounds ${spread("unset", perStep)}), steps/s ${((paired("unset", rate) - 1) * 100).toFixed(1)} % (rounds ${spread("unset", rate)}); load average now ${os.loadavg()[0]!.toFixed(1)}`,
    );
    console.log(`    target: within 3 %: ${cost <= TARGET && paired("unset", rate) >= 1 / TARGET ? "meets it" : "MISSES it"}`);
  } finally {
    for (const m of modes) await runtimes[m].shutdown();
    model.stop();
    receiver?.stop();
    await closeAll();
    await database.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
