// The OpenAI-compatible endpoint's figures: 50 concurrent streaming chat completions through the studio's real route
// handler served over HTTP on 127.0.0.1, each a run of an agent on the loopback model (which streams its reply in
// pieces 20 ms apart), sent by the official openai client. The figure is the time from the model writing its first
// piece of text to the client reading it (p50, p95; target p95 ≤ 20 ms), and nothing lost: every request a stored,
// finished run and every stream whole and ended with [DONE]. The model and the clients share a process of their own
// (bench/api_clients.ts), so both ends are timed on one clock and none of their work is charged to the studio.
// Run: npm run bench:api
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { and, count, eq, inArray } from "drizzle-orm";
import type { Result, Round } from "./api_clients";

const CONCURRENT = 50;
const ROUNDS = 3;
const WARMUP = 5;
const TARGET_P95_MS = 20;
/** A request that has not finished by then counts as lost; a round that has not, fails the bench. */
const REQUEST_TIMEOUT_MS = 60_000;
const ROUND_TIMEOUT_MS = 120_000;

type Stats = { quantile(values: number[], q: number): number; fmtMs(ms: number): string };

type Clients = { url: string; round(round: Omit<Round, "kind">): Promise<Result[]>; stop(): void };

async function clientsProcess(): Promise<Clients> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "bench", "api_clients.ts")], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting: Array<(results: Result[]) => void> = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.on("message", (message: { kind: "ready"; url: string } | { kind: "results"; results: Result[] }) => {
      if (message.kind === "ready") resolve(message.url);
      else waiting.shift()?.(message.results);
    });
    child.once("exit", (code) => reject(new Error(`the clients' process exited with ${code}`)));
  });
  return {
    url,
    round: (round) =>
      new Promise<Result[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`a round of ${round.n} requests took over ${ROUND_TIMEOUT_MS / 1000} s`)), ROUND_TIMEOUT_MS);
        waiting.push((results) => {
          clearTimeout(timer);
          resolve(results);
        });
        child.send({ kind: "round", ...round });
      }),
    stop: () => {
      if (child.connected) child.send({ kind: "stop" });
      setTimeout(() => child.kill(), 2_000).unref();
    },
  };
}

async function main() {
  const { quantile, fmtMs } = (await import(path.join(process.cwd(), "bench", "stats.mjs"))) as Stats;
  const scratch = mkdtempSync(path.join(tmpdir(), "quiver-bench-api-"));
  const tree = path.join(scratch, "tools");
  const dataDir = path.join(scratch, "data");
  mkdirSync(tree, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  // Before anything reads the configuration, which is read once per process.
  Object.assign(process.env, { QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: tree, DATABASE_URL: process.env.DATABASE_URL ?? "" });
  process.env.QUIVER_SECRET_KEY ??= "00".repeat(32);

  const { closeDatabase, startDatabase } = await import("@/server/db");
  const { createAgent } = await import("@/server/agents/store");
  const { workspaceDir } = await import("@/server/system/filesystem/workspace");
  const { studioRuntime } = await import("@/server/runtime");
  const { closeAll } = await import("@/server/host");
  const { apiKeys, runEvents, runs } = await import("@/db/schema");
  const { newKeyValue } = await import("@/server/keys/value");
  const { serveOverHttp } = await import("@/tests/integration/http/studio");
  const route = await import("@/app/api/v1/chat/completions/route");
  const { REPLY } = await import("./api_clients");

  const database = await startDatabase();
  const db = database.db;
  const clients = await clientsProcess();
  let server: http.Server | null = null;
  let complete = true;
  try {
    const agent = await createAgent(
      db,
      "bench",
      { name: "bench desk", model: { provider: "openai-compatible", model: "loopback", base_url: clients.url }, tools: [] },
      { tree, workspace: workspaceDir(dataDir) },
    );
    const value = newKeyValue();
    // A rate well above the bench's requests: the limiter is on the path, but its limit is not the figure.
    await db.insert(apiKeys).values({ name: "bench", prefix: value.prefix, hash: value.hash, agents: "all", scopes: ["run"], ratePerMinute: 100_000, createdBy: "bench" });
    server = await serveOverHttp(route.POST);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const round = (n: number, tag: string) => clients.round({ base, key: value.value, model: agent.name, n, tag, timeoutMs: REQUEST_TIMEOUT_MS });

    console.log(
      `${CONCURRENT} concurrent streaming chat completions × ${ROUNDS} rounds: the studio's route on 127.0.0.1, the openai client and the loopback model (own process, 20 ms between pieces), ${database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : "PGlite"}`,
    );
    await round(WARMUP, "r0");

    const lag = monitorEventLoopDelay({ resolution: 1 });
    lag.enable();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const results: Result[] = [];
    for (let r = 1; r <= ROUNDS; r++) results.push(...(await round(CONCURRENT, `r${r}`)));
    const total = performance.now() - started;
    const used = process.cpuUsage(cpu);
    lag.disable();

    const timed = results.filter((r) => r.modelFirstAt !== null && r.clientFirstAt !== null);
    const firstToken = timed.map((r) => r.clientFirstAt! - r.modelFirstAt!);
    const toModel = results.filter((r) => r.modelReceivedAt !== null).map((r) => r.modelReceivedAt! - r.sentAt);
    const whole = results.map((r) => r.endedAt - r.sentAt);
    const med = (values: number[]) => fmtMs(quantile(values, 0.5));
    const p95 = (values: number[]) => fmtMs(quantile(values, 0.95));
    const p95FirstToken = quantile(firstToken, 0.95);
    console.log(
      `    model's first token → client's first token: median ${med(firstToken)}, p95 ${p95(firstToken)}, max ${fmtMs(Math.max(...firstToken))}   target: p95 ≤ ${TARGET_P95_MS} ms${p95FirstToken <= TARGET_P95_MS ? "" : "  MISSED"}`,
    );
    console.log(`    client's request → the model's request (key, agent, run started): median ${med(toModel)}, p95 ${p95(toModel)}`);
    console.log(`    whole stream, request to [DONE]: median ${med(whole)}, p95 ${p95(whole)}; ${results.length} requests in ${fmtMs(total)}`);
    console.log(
      `    the studio's process: ${(((used.user + used.system) / 1000 / total) * 100).toFixed(0)}% of a core busy; event-loop delay median ${fmtMs(lag.percentile(50) / 1e6)}, p95 ${fmtMs(lag.percentile(95) / 1e6)} (the machine's load average: ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`,
    );

    // Nothing lost: each request's run stored and done with its reply, each stream whole and ended with [DONE].
    const ids = results.flatMap((r) => (r.runId ? [r.runId] : []));
    const runtime = await studioRuntime();
    await Promise.all(ids.map((id) => runtime.idle(id)));
    const storedRuns = ids.length ? await db.select({ n: count() }).from(runs).where(and(inArray(runs.id, ids), eq(runs.status, "done"), eq(runs.via, "api"))) : [{ n: 0 }];
    const replies = ids.length ? await db.select({ data: runEvents.data }).from(runEvents).where(and(inArray(runEvents.runId, ids), eq(runEvents.type, "message"))) : [];
    const stored = replies.filter((e) => (e.data as { role?: string; text?: string }).role === "assistant" && (e.data as { text?: string }).text === REPLY).length;
    const streamsWhole = results.filter((r) => r.done && r.text === REPLY && r.error === null).length;
    const errors = [...new Set(results.flatMap((r) => (r.error ? [r.error] : [])))];
    console.log(
      `    stored: ${storedRuns[0]!.n} runs done (via the key) of ${results.length}; ${stored} replies stored whole of ${results.length}; streams whole and ended with [DONE]: ${streamsWhole} of ${results.length}; first tokens timed: ${timed.length} of ${results.length}`,
    );
    const pieces = new Map<number, number>();
    for (const r of results) pieces.set(r.pieces, (pieces.get(r.pieces) ?? 0) + 1);
    console.log(`    text chunks per stream (the model writes ${Math.ceil(REPLY.length / 8)}): ${[...pieces].sort((a, b) => b[0] - a[0]).map(([n, k]) => `${n} in ${k}`).join(", ")}`);
    if (errors.length) console.log(`    errors: ${errors.slice(0, 3).join(" | ")}`);
    if (storedRuns[0]!.n !== results.length || stored !== results.length || streamsWhole !== results.length || timed.length !== results.length) complete = false;
  } finally {
    if (server) await new Promise((resolve) => server!.close(resolve));
    await (await studioRuntime()).shutdown();
    clients.stop();
    await closeAll();
    await closeDatabase();
    rmSync(scratch, { recursive: true, force: true });
  }
  if (!complete) {
    console.error("Something was lost: not every request has a stored, finished run and a whole stream.");
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
