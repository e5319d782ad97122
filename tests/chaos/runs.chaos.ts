// Durable runs under SIGKILL: two worker processes (tests/support/studio-worker.ts) and this process as the web one,
// serving the runs API over HTTP on 127.0.0.1, on a PostgreSQL database of the test's own (quiver_chaos, made on
// DATABASE_URL's server and dropped after). 30 runs of 5 calls start one after another over the first minute and a
// half, each call taking its own while, so runs are moving for the whole two minutes in which the workers are killed
// at seeded random moments and started again; every Ask me is decided by a person's API key through the runs API.
// Afterwards every run has ended or waits for a person on a call that may have run, no effect was applied twice,
// and no approval was lost (R-queue-lease, R-journal-replay, R-journal-manual, R-journal-idempotent, R-queue-word).
// Skipped without PostgreSQL.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { apiKeys, audit, runEvents, runs, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { pathParams } from "@/server/api/edge";
import { closeDatabase, startDatabase } from "@/server/db";
import { env, parseEnv } from "@/server/env";
import { closeAll } from "@/server/host";
import { newKeyValue } from "@/server/keys/value";
import { stopStudioRuntime, studioRuntime, type Runtime } from "@/server/runtime";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { routeFiles } from "@/tests/integration/api/runs-studio";
import { serveOverHttp } from "@/tests/integration/http/studio";
import { startLoopbackModel, type LoopbackModel } from "@/tests/support/loopback-model";
import { ownDatabase } from "@/tests/support/own-database";
import { describeRun, type Kill } from "./diagnose";
import { countBy, linesOf, PAYMENTS, LEDGER, VAULT, schedule, script, seeded, sleep, type Planned } from "./plan";
import { studioProcess, type StudioProcess } from "@/tests/support/studio-process";

const serverUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
const own = serverUrl ? ownDatabase(serverUrl, "quiver_chaos") : null;
const KEY = "c".repeat(64);
const RUNS = 30;
const CALLS = 5;
/** Workers are started, killed and started again for this long; the last runs start some 20 s before its end. */
const CHAOS_MS = 120_000;
/** Run i starts this long after the first workers are spawned, plus i × START_EVERY_MS: the 30th at 1 min 41 s. */
const FIRST_START_MS = 5_000;
const START_EVERY_MS = 3_300;
/** Runs starting after this have quick calls: the kills still find them moving, and they end soon after. */
const QUICK_AFTER_MS = 85_000;
const SETTLE_MS = 60_000;

describe.skipIf(!serverUrl)("durable runs under SIGKILL, on PostgreSQL", () => {
  const ANN = { id: "user-chaos", name: "Ann" };
  let chaosUrl: string;
  let dir: string;
  let tree: string;
  let effects: string;
  let database: Database;
  let web: Runtime;
  let model: LoopbackModel;
  let server: http.Server | undefined;
  let api: string;
  let keyValue: string;
  /** A worker, and whether it has said it is ready: only a ready one can hold runs to be killed with. */
  type Worker = StudioProcess & { isReady: boolean };
  const workers: Worker[] = [];

  const spawnWorker = (): Worker => {
    const dataDir = fs.mkdtempSync(path.join(dir, "worker-"));
    const worker: Worker = Object.assign(studioProcess({ DATABASE_URL: chaosUrl, QUIVER_SECRET_KEY: KEY, QUIVER_ROLE: "worker", QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: tree }), { isReady: false });
    worker.ready.then(() => (worker.isReady = true), () => undefined);
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    chaosUrl = own!.url;
    await own!.create();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-chaos-"));
    tree = path.join(dir, "tools");
    // Inside the tree: the only folder a tool host's sandbox lets a tool write to besides its work folder.
    effects = path.join(tree, ".effects");
    fs.mkdirSync(effects, { recursive: true });
    fs.mkdirSync(path.join(dir, "web"));
    fs.writeFileSync(path.join(tree, "ledger.py"), LEDGER);
    fs.writeFileSync(path.join(tree, "payments.py"), PAYMENTS);
    fs.writeFileSync(path.join(tree, "vault.py"), VAULT);
    // This process is the studio's web process: its configuration is read once, on first use, from here on.
    Object.assign(process.env, { DATABASE_URL: chaosUrl, QUIVER_SECRET_KEY: KEY, QUIVER_ROLE: "web", QUIVER_DATA_DIR: path.join(dir, "web"), QUIVER_TOOLS_DIR: tree });
    if (env().databaseUrl !== chaosUrl || env().role !== "web") throw new Error("the studio's configuration was read before the chaos test set it");
    database = await startDatabase();
    web = await studioRuntime();
    const routes = await routeFiles();
    server = await serveOverHttp(async (request) => {
      const route = routes.find((r) => pathParams(r.pattern, new URL(request.url).pathname) !== null);
      const handler = route?.module[request.method] as ((request: Request) => Promise<Response>) | undefined;
      return handler ? handler(request) : new Response("no such route", { status: route ? 405 : 404 });
    });
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    model = await startLoopbackModel();
    await database.db.insert(user).values({ id: ANN.id, email: "chaos@quiver.test", name: ANN.name, role: "builder" });
    // Ann's key may decide and nothing else: the approvals below are the only thing it does.
    const made = newKeyValue();
    await database.db.insert(apiKeys).values({ name: "approver", prefix: made.prefix, hash: made.hash, agents: "all", scopes: ["decide"], ratePerMinute: 100_000, createdBy: ANN.id });
    keyValue = made.value;
  }, 90_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
    await Promise.all(workers.map((w) => w.exited));
    if (server) {
      const closing = server;
      await new Promise<void>((resolve) => closing.close(() => resolve()));
      closing.closeAllConnections();
    }
    await stopStudioRuntime();
    await closeDatabase();
    await model?.close();
    await closeAll();
    await own?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("R-queue-lease, R-journal-replay, R-journal-manual, R-journal-idempotent, R-queue-word: 30 runs survive workers killed at random for two minutes, with every effect and every approval through the API applied at most once", async () => {
    const rng = seeded(Number(process.env.QUIVER_CHAOS_SEED ?? 20261201));
    const plan: Planned[] = schedule(rng, { runs: RUNS, calls: CALLS, firstMs: FIRST_START_MS, everyMs: START_EVERY_MS, quickAfterMs: QUICK_AFTER_MS });
    model.fallback = script(effects, plan);
    const chaosBegan = Date.now();
    const chaosEnds = chaosBegan + CHAOS_MS;
    let alive = [spawnWorker(), spawnWorker()];
    await expect.poll(() => alive.every((w) => w.isReady), { timeout: 60_000, interval: 100 }).toBe(true);
    const readyAfter = Date.now() - chaosBegan;

    const agentId = (
      await createAgent(
        database.db,
        ANN.id,
        {
          name: "chaos",
          model: { provider: "openai-compatible" as const, model: "loopback", base_url: model.url },
          tools: [{ entry: "tools/ledger.py" }, { entry: "tools/payments.py" }, { entry: "tools/vault.py", permissions: { vault__unlock: "ASK" } }],
        },
        { tree, workspace: workspaceDir(dir) },
      )
    ).id;

    const runIds: string[] = [];
    const decided = new Set<string>();
    /** Answers other than "decided" and "not waiting yet", by status: none is expected. */
    const refused: string[] = [];
    /** Everything stored, in order, grouped by run. */
    const eventsByRun = async () => {
      const rows = await database.db.select().from(runEvents).orderBy(asc(runEvents.id));
      const byRun = new Map<string, (typeof rows)[number][]>();
      for (const row of rows) byRun.set(row.runId, [...(byRun.get(row.runId) ?? []), row]);
      return byRun;
    };
    /** Ann approves every Ask me once, as a client of the runs API would: POST /runs/{id}/decisions with her key. */
    const approve = async () => {
      for (const [runId, rows] of await eventsByRun()) {
        const answered = new Set(rows.filter((e) => e.type === "approval_decided").map((e) => String(e.data.callId)));
        for (const asked of rows.filter((e) => e.type === "approval_requested")) {
          const callId = String(asked.data.callId);
          if (answered.has(callId) || decided.has(`${runId}/${callId}`)) continue;
          const answer = await fetch(`${api}/runs/${runId}/decisions`, {
            method: "POST",
            headers: { authorization: `Bearer ${keyValue}`, "content-type": "application/json" },
            body: JSON.stringify({ callId, decision: "approve_once" }),
          });
          const body = (await answer.json()) as { error?: { code?: string } };
          if (answer.status === 200) decided.add(`${runId}/${callId}`);
          // Not waiting yet (its row lags its event by a moment): the next pass decides it.
          else if (answer.status !== 409) refused.push(`${answer.status} ${body.error?.code ?? ""}`);
        }
      }
    };
    /** Ended, or waiting for a person on a call that may have run (R-journal-manual). */
    const unsettled = async () => {
      const byRun = await eventsByRun();
      const open: string[] = [];
      for (const runId of runIds) {
        const status = (await web.get(runId)).run.status;
        if (status === "done" || status === "failed") continue;
        const rows = byRun.get(runId) ?? [];
        const asked = rows.filter((e) => e.type === "recovery_requested").length;
        const answered = rows.filter((e) => e.type === "recovery_decided").length;
        if (status === "waiting" && asked > answered) continue;
        open.push(runId);
      }
      return open;
    };
    const moving = async () => (runIds.length === 0 ? 0 : (await database.db.select({ id: runs.id }).from(runs).where(and(inArray(runs.id, runIds), eq(runs.status, "running")))).length);

    const killed: Kill[] = [];
    /** Runs a worker held when it was killed: each had to be taken over by another (R-queue-lease). */
    let takeovers = 0;
    let nextKill = Date.now() + 2500 + rng() * 4000;
    let lastKill = 0;
    /** The ticks after the first start when no run was running: the kills must always have work to interrupt. */
    let idleTicks = 0;
    let ticks = 0;
    for (let tick = 0; tick < 2000 && Date.now() < chaosEnds; tick++) {
      while (runIds.length < RUNS && Date.now() >= chaosBegan + plan[runIds.length]!.at) {
        const i = runIds.length;
        runIds.push((await web.start({ agentId, message: `Run ${i}: do the five steps.`, user: ANN })).runId);
      }
      await approve();
      if (Date.now() >= nextKill) {
        const holders = alive.filter((w) => w.isReady && w.live.size > 0);
        const victim = holders[Math.floor(rng() * holders.length)];
        if (victim) {
          takeovers += victim.live.size;
          killed.push({ at: Date.now(), pid: victim.pid, live: [...victim.live] });
          victim.child.kill("SIGKILL");
          await victim.exited;
          lastKill = Date.now() - chaosBegan;
          alive = [...alive.filter((w) => w !== victim), spawnWorker()];
          nextKill = Date.now() + 2500 + rng() * 4000;
        }
      }
      ticks++;
      if ((await moving()) === 0) idleTicks++;
      await sleep(250);
    }

    const settleBegan = Date.now();
    let open = await unsettled();
    for (let pass = 0; pass < 400 && open.length > 0 && Date.now() < settleBegan + SETTLE_MS; pass++) {
      await approve();
      await sleep(250);
      open = await unsettled();
    }
    const settleMs = Date.now() - settleBegan;
    const secs = (ms: number) => `${Math.round(ms / 1000)} s`;
    const summary = (outcomes: string) =>
      process.stdout.write(
        `chaos: ${RUNS} runs, ${killed.length} kills (the last at ${secs(lastKill)}), ${takeovers} takeovers, ${decided.size} approvals through the API; ${outcomes}; ` +
          `no run running in ${idleTicks} of ${ticks} ticks; workers first ready at ${secs(readyAfter)}, ${secs(CHAOS_MS)} of kills, ${secs(settleMs)} to settle\n`,
      );
    if (open.length > 0 || lastKill <= CHAOS_MS - 20_000) summary(`${open.length} unsettled`);
    expect(open, "runs still running or waiting on something else").toEqual([]);
    expect(refused, "decisions the API refused for another reason than not waiting yet").toEqual([]);
    expect(lastKill, "the last kill came near the end of the two minutes").toBeGreaterThan(CHAOS_MS - 20_000);

    const byRun = await eventsByRun();
    const manualLines = countBy(linesOf(path.join(effects, "manual.txt")));
    // Which processes drove each run, from every line each worker printed.
    const drivenBy = new Map<string, Set<number>>();
    for (const w of workers) for (const line of w.lines) for (const id of Array.isArray(line.live) ? (line.live as string[]) : []) drivenBy.set(id, (drivenBy.get(id) ?? new Set()).add(w.pid));
    for (const [tag, n] of manualLines) {
      const runId = runIds[Number(/^r(\d+)-/.exec(tag)?.[1])];
      if (n > 1 && runId) process.stdout.write(`manual line ${tag} ${n} times:\n${await describeRun(database.db, runId, chaosBegan, killed, drivenBy.get(runId))}\n`);
    }
    const outcomes = { done: 0, failed: 0, waitingForPerson: 0 };
    for (const runId of runIds) {
      const { run } = await web.get(runId);
      const rows = byRun.get(runId) ?? [];
      expect(rows.filter((e) => e.type === "run_started"), runId).toHaveLength(1);
      // Contiguous: each call once, its result once and after it, and a run that is done answered every call.
      const callsMade = rows.filter((e) => e.type === "tool_call");
      const tagOf = new Map(callsMade.map((e) => [String(e.data.callId), String((e.data.args as { tag?: string }).tag)]));
      expect(tagOf.size, runId).toBe(callsMade.length);
      const results = rows.filter((e) => e.type === "tool_result");
      expect(new Set(results.map((e) => e.data.callId)).size, runId).toBe(results.length);
      for (const r of results) expect(callsMade.find((c) => c.data.callId === r.data.callId)!.id).toBeLessThan(r.id);
      if (run.status === "done") {
        outcomes.done++;
        expect(results.length, runId).toBe(CALLS);
      } else if (run.status === "failed") {
        outcomes.failed++;
        expect(run.error ?? "", runId).toMatch(/\w+ \w+/);
      } else outcomes.waitingForPerson++;
      for (const r of results.filter((e) => e.data.operation === "ledger__append" && e.data.outcome === "ok" && e.data.text === "appended")) {
        expect(manualLines.get(tagOf.get(String(r.data.callId))!) ?? 0, `manual call ${String(r.data.callId)}`).toBe(1);
      }
      // Every approval came from Ann's key through the API, and none was applied twice.
      for (const a of rows.filter((e) => e.type === "approval_decided")) {
        expect(decided.has(`${runId}/${String(a.data.callId)}`)).toBe(true);
        expect(a.data.by, `approval ${String(a.data.callId)}`).toMatchObject({ name: "API key approver" });
      }
      for (const callId of new Set(rows.filter((e) => e.type === "approval_requested").map((e) => String(e.data.callId)))) {
        const decisions = rows.filter((e) => e.type === "approval_decided" && e.data.callId === callId);
        expect(decisions.length, `approval ${callId}`).toBeLessThanOrEqual(1);
        if (decided.has(`${runId}/${callId}`) && run.status === "done") expect(decisions).toHaveLength(1);
      }
    }
    for (const [tag, n] of manualLines) expect(n, `manual line ${tag}`).toBe(1);
    for (const kind of ["pay", "vault"]) {
      const applied = linesOf(path.join(effects, `${kind}.txt`)).map((l) => l.split(" ")[0]!);
      expect(countBy(applied).size, kind).toBe(applied.length);
      expect(new Set(applied), kind).toEqual(new Set(linesOf(path.join(effects, `${kind}.calls`))));
      const tags = linesOf(path.join(effects, `${kind}.txt`)).map((l) => l.split(" ")[1]!);
      expect(countBy(tags).size, `${kind} once per call`).toBe(tags.length);
    }
    const audited = await database.db.select({ action: audit.action }).from(audit).where(eq(audit.action, "run.decide.approve_once"));
    expect(audited.length, "one audit row per decision the API took").toBe(decided.size);
    const handovers = runIds.reduce((n, id) => n + Math.max(0, (drivenBy.get(id)?.size ?? 1) - 1), 0);
    summary(`${handovers} changes of process; ${outcomes.done} done, ${outcomes.failed} failed, ${outcomes.waitingForPerson} waiting for a person`);
  }, 240_000);
});
