// The run queue's figures (R-queue-lease), on PostgreSQL (DATABASE_URL), where processes share a database:
// (1) takeover: two worker processes (tests/support/studio-worker.ts, the studio's own start-up with
// QUIVER_ROLE=worker) drive runs this process starts; each round kills the one holding most of them with SIGKILL
// while their calls sleep, and times, for each run it held, how long after the kill the run's next step was stored by
// the other process; p95 beside the target, the lease time + 5 s. (2) the lease's cost: 100 concurrent runs of 5
// calls driven in this process, as bench:runs (a) and (b) drive them, timing every refresh of the leases: their
// time spread over the steps, beside the target of 1 ms a step, and the steps' overhead as bench:runs reports it.
// Everything it makes in the database is removed after. Run: DATABASE_URL=postgres://… npm run bench:takeover
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, gt, inArray } from "drizzle-orm";
import { openDatabase, type Db } from "@/db/client";
import { agents, runEvents, runs, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { closeAll } from "@/server/host";
import { LEASE_SECONDS, Runtime } from "@/server/runtime";
import type { StepMetrics } from "@/server/runtime/run";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { studioProcess, type StudioProcess } from "@/tests/support/studio-process";
import { concurrentRuns, loopbackProcess, PING, pingUntil } from "./loopback";

const ROUNDS = 5;
const RUNS_PER_ROUND = 10;
const LOAD_RUNS = 100;
const CALLS = 5;
const TARGET_TAKEOVER_MS = (LEASE_SECONDS + 5) * 1000;
const TARGET_LEASE_MS = 1;
const PERSON = "bench-takeover";

type Stats = { quantile(values: number[], q: number): number; fmtMs(ms: number): string };

// A nap repeats harmlessly: a safe call in flight at the kill runs again in the next process rather than waiting for a
// person to say whether it ran (R-journal-replay), so every run ends and the next step is the taker's own.
const TOOL = `"""The benchmark's tools."""

import time

from quiver import tool


@tool(replay="safe")
def nap(seconds: float) -> str:
    """Sleep, as a slow call does.

    Args:
        seconds: How long.
    """
    time.sleep(seconds)
    return "rested"


${PING}`;

/** A worker process of the studio's own start-up; a refused start-up says why on stderr. */
function worker(env: Record<string, string>, scratch: string): StudioProcess {
  const dataDir = mkdtempSync(path.join(scratch, "worker-"));
  const w = studioProcess({ ...env, QUIVER_ROLE: "worker", QUIVER_DATA_DIR: dataDir }, { stderr: "inherit" });
  w.ready.catch(() => console.error(`a worker refused to start: ${String(w.lines.find((l) => l.refused)?.refused ?? "it exited")}`));
  return w;
}

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function firstAfter(db: Db, runId: string, after: Date): Promise<Date | null> {
  const [row] = await db.select({ at: runEvents.at }).from(runEvents).where(and(eq(runEvents.runId, runId), gt(runEvents.at, after))).orderBy(runEvents.id).limit(1);
  return row?.at ?? null;
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error("bench:takeover needs DATABASE_URL (a PostgreSQL database): processes share runs only there.");
    process.exit(1);
  }
  const { quantile, fmtMs } = (await import(path.join(process.cwd(), "bench", "stats.mjs"))) as Stats;
  const scratch = mkdtempSync(path.join(tmpdir(), "quiver-bench-takeover-"));
  const tree = path.join(scratch, "tools");
  mkdirSync(tree, { recursive: true });
  writeFileSync(path.join(tree, "bench.py"), TOOL);
  // What reads the data folder from the environment (a catalog's host among them) uses the scratch one, never the
  // checkout's .quiver (R-bench-scratch).
  process.env.QUIVER_DATA_DIR = scratch;
  // The shared test database's key unless one is given: every process of a studio needs the same (R-queue-role).
  const key = process.env.QUIVER_SECRET_KEY ?? "c".repeat(64);
  process.env.QUIVER_SECRET_KEY = key;
  // A queue of its own, so no studio sharing the database takes the benchmark's runs, nor it theirs.
  const queue = "bench-takeover";
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATABASE_URL: databaseUrl, QUIVER_SECRET_KEY: key, QUIVER_TOOLS_DIR: tree, QUIVER_RUN_QUEUE: queue };

  const database = await openDatabase({ databaseUrl, dataDir: scratch });
  const db = database.db;
  const model = await loopbackProcess(pingUntil, { calls: CALLS, ping: "bench__ping", nap: "bench__nap" });
  const web = new Runtime({ db, channel: database.channel, tree, dataDir: scratch, role: "web", queue });
  await web.connect();
  await db.insert(user).values({ id: PERSON, email: `${PERSON}@quiver.test`, name: "Bench", role: "builder" }).onConflictDoNothing();
  const made: string[] = [];
  const agentOf = async (name: string) => {
    const declaration = { name: `${name} ${Date.now()}`, model: { provider: "openai-compatible" as const, model: name, base_url: model.url }, tools: [{ entry: "tools/bench.py" }] };
    const { id } = await createAgent(db, PERSON, declaration, { tree, workspace: workspaceDir(scratch) });
    made.push(id);
    return id;
  };
  const workers: StudioProcess[] = [];
  const spawnWorker = () => {
    const w = worker(env, scratch);
    workers.push(w);
    return w;
  };
  let failed = false;
  try {
    console.log(`takeover: ${ROUNDS} rounds, ${RUNS_PER_ROUND} runs each sleeping in a call, two worker processes on PostgreSQL; lease ${LEASE_SECONDS} s`);
    const napper = await agentOf("loopback-nap");
    let pair = [spawnWorker(), spawnWorker()];
    await Promise.all(pair.map((w) => w.ready));
    const takeovers: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const ids = await Promise.all(Array.from({ length: RUNS_PER_ROUND }, async () => (await web.start({ agentId: napper, message: "Rest.", user: { id: PERSON } })).runId));
      const started = async () => (await db.select({ runId: runEvents.runId }).from(runEvents).where(and(inArray(runEvents.runId, ids), eq(runEvents.type, "tool_started")))).length === ids.length;
      await until(started, 60_000, "every run's call to start");
      await until(() => ids.every((id) => pair.some((w) => w.live.has(id))), 10_000, "the workers to report their runs");
      const holder = pair.reduce((a, b) => (ids.filter((id) => b.live.has(id)).length > ids.filter((id) => a.live.has(id)).length ? b : a));
      const held = ids.filter((id) => holder.live.has(id));
      const killed = new Date();
      process.kill(holder.pid, "SIGKILL");
      const next = new Map<string, number>();
      await until(
        async () => {
          for (const id of held) {
            if (next.has(id)) continue;
            const at = await firstAfter(db, id, killed);
            if (at) next.set(id, at.getTime() - killed.getTime());
          }
          return next.size === held.length;
        },
        (LEASE_SECONDS + 30) * 1000,
        "the other worker to take the runs over",
      );
      takeovers.push(...next.values());
      const done = async () => (await db.select({ status: runs.status }).from(runs).where(inArray(runs.id, ids))).every((r) => r.status === "done");
      await until(done, 60_000, "every run to end done");
      console.log(`    round ${round + 1}: killed the holder of ${held.length} of ${ids.length} runs; next step after ${fmtMs(Math.min(...next.values()))} to ${fmtMs(Math.max(...next.values()))}`);
      const replacement = spawnWorker();
      await replacement.ready;
      pair = [pair.find((w) => w !== holder)!, replacement];
    }
    const p95 = quantile(takeovers, 0.95);
    console.log(`    SIGKILL of the holder to its runs' next step in the other process: median ${fmtMs(quantile(takeovers, 0.5))}, p95 ${fmtMs(p95)} over ${takeovers.length} runs   target: p95 ≤ ${fmtMs(TARGET_TAKEOVER_MS)} (lease ${LEASE_SECONDS} s + 5 s)`);
    if (p95 > TARGET_TAKEOVER_MS) failed = true;
    for (const w of pair) w.child.kill("SIGTERM");

    // (2) the lease's cost, in this process, as bench:runs drives its runs.
    const steps: StepMetrics[] = [];
    const refreshes: { ms: number; runs: number }[] = [];
    const driver = new Runtime({ db, channel: database.channel, tree, dataDir: scratch, modelRetries: 0, queue, onStep: (s) => steps.push(s), onLeaseRefresh: (ms, n) => refreshes.push({ ms, runs: n }) });
    await driver.connect();
    console.log(`the lease's cost: ${LOAD_RUNS} concurrent runs × ${CALLS} calls driven in this process, as bench:runs`);
    for (const [label, latency] of [["(a) the model answers at once", 0], ["(b) the model answers in 0–2 s", 2_000]] as const) {
      const agentId = await agentOf(`loopback-${latency}`);
      steps.length = 0;
      refreshes.length = 0;
      const { ids, ms: total } = await concurrentRuns(driver, agentId, LOAD_RUNS, { id: PERSON });
      const overhead = steps.map((s) => s.ms - s.modelMs);
      const share = refreshes.map((r) => r.ms / Math.max(1, r.runs));
      const all = refreshes.reduce((sum, r) => sum + r.ms, 0);
      console.log(`    ${label}: total ${fmtMs(total)}, ${steps.length} steps; step overhead (step − model) median ${fmtMs(quantile(overhead, 0.5))}, p95 ${fmtMs(quantile(overhead, 0.95))}`);
      console.log(
        `        ${refreshes.length} lease refreshes (every 3 s, all runs in one statement, never in a step): median ${fmtMs(quantile(refreshes.map((r) => r.ms), 0.5))}, a run's share of one p95 ${fmtMs(quantile(share, 0.95))}; their time over the steps: ${fmtMs(all / Math.max(1, steps.length))} a step   target: ≤ ${fmtMs(TARGET_LEASE_MS)} a step`,
      );
      const ended = (await db.select({ status: runs.status }).from(runs).where(inArray(runs.id, ids))).filter((r) => r.status === "done").length;
      if (ended !== LOAD_RUNS) {
        console.error(`    only ${ended} of ${LOAD_RUNS} runs ended done`);
        failed = true;
      }
      if (all / Math.max(1, steps.length) > TARGET_LEASE_MS) failed = true;
    }
    await driver.shutdown();
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
    await web.shutdown();
    if (made.length > 0) {
      await db.delete(runs).where(inArray(runs.agentId, made));
      await db.delete(agents).where(inArray(agents.id, made));
    }
    await db.delete(user).where(eq(user.id, PERSON));
    model.stop();
    await closeAll();
    await database.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
