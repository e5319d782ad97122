// Durable runs under SIGKILL: two worker processes (tests/support/studio-worker.ts) and this process as the web one,
// on a PostgreSQL database of the test's own (quiver_chaos, made on DATABASE_URL's server and dropped after), drive 30
// runs of 5 calls each while the workers are killed at seeded random moments and started again. Afterwards every run
// has ended or waits for a person on a call that may have run, no effect was applied twice, and no approval was lost
// (R-queue-lease, R-journal-replay, R-journal-manual, R-journal-idempotent, R-queue-word). Skipped without PostgreSQL.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { runEvents, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { parseEnv } from "@/server/env";
import { closeAll } from "@/server/host";
import { Runtime } from "@/server/runtime";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { call, startLoopbackModel, text, type LoopbackModel, type RecordedRequest, type ScriptedReply } from "@/tests/support/loopback-model";

const serverUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
const DB_NAME = "quiver_chaos";
const KEY = "c".repeat(64);
const RUNS = 30;
const CALLS = 5;
const MAX_KILLS = 8;
const CHAOS_MS = 120_000;
const SETTLE_MS = 60_000;

/** Each call's effect is a line carrying its tag; the idempotent ones apply it once per key (an exclusive marker file). */
const LEDGER = `"""Writes to a ledger."""\n\nimport os\nimport time\n\n\ndef append(folder: str, tag: str) -> str:\n    """Append a line.\n\n    Args:\n        folder: Where.\n        tag: The line.\n    """\n    with open(os.path.join(folder, "manual.txt"), "a") as f:\n        f.write(tag + "\\n")\n    time.sleep(0.4)\n    return "appended"\n`;
const onceBody = (file: string) =>
  `    with open(os.path.join(folder, "${file}.calls"), "a") as f:\n        f.write(str(ctx.idempotency_key) + "\\n")\n    try:\n        fd = os.open(os.path.join(folder, "${file}-" + str(ctx.idempotency_key)), os.O_CREAT | os.O_EXCL | os.O_WRONLY)\n        os.close(fd)\n        with open(os.path.join(folder, "${file}.txt"), "a") as f:\n            f.write(str(ctx.idempotency_key) + " " + tag + "\\n")\n    except FileExistsError:\n        pass\n    time.sleep(0.4)\n`;
const PAYMENTS = `"""Pays once per key."""\n\nimport os\nimport time\nfrom quiver import Context, tool\n\n\n@tool(replay="idempotent")\ndef pay(folder: str, tag: str, ctx: Context) -> str:\n    """Pay.\n\n    Args:\n        folder: Where.\n        tag: What for.\n    """\n${onceBody("pay")}    return "paid"\n`;
const VAULT = `"""Opens, once per key, when someone says so."""\n\nimport os\nimport time\nfrom quiver import Context, tool\n\n\n@tool(replay="idempotent")\ndef unlock(folder: str, tag: str, ctx: Context) -> str:\n    """Unlock.\n\n    Args:\n        folder: Where.\n        tag: Which.\n    """\n${onceBody("vault")}    return "unlocked"\n`;
const PLAN = ["ledger__append", "payments__pay", "vault__unlock", "payments__pay", "ledger__append"];

/** A seeded generator (mulberry32), so a failing sequence of kills can be run again. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Worker = { child: ChildProcess; pid: number; ready: boolean; live: Set<string>; exited: Promise<number | null> };
const drivenBy = new Map<string, Set<number>>();

function studioProcess(env: Record<string, string | undefined>): Worker {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join("tests", "support", "studio-worker.ts")], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const worker: Worker = { child, pid: child.pid!, ready: false, live: new Set(), exited: new Promise((resolve) => child.once("exit", (code: number | null) => resolve(code))) };
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (!line.startsWith("{")) continue;
      const parsed = JSON.parse(line) as { ready?: boolean; live?: string[] };
      if (parsed.ready) worker.ready = true;
      if (Array.isArray(parsed.live)) {
        worker.live = new Set(parsed.live);
        for (const id of parsed.live) drivenBy.set(id, (drivenBy.get(id) ?? new Set()).add(worker.pid));
      }
    }
  });
  child.stderr!.on("data", () => undefined);
  return worker;
}

/** The model: call k of run i is PLAN[k] tagged r<i>-c<k>, read from the conversation, so a replayed turn asks the same. */
function script(folder: string) {
  return (request: RecordedRequest): ScriptedReply => {
    const messages = request.body.messages;
    const first = JSON.stringify(messages.find((m) => m.role === "user")?.content ?? "");
    const run = /Run (\d+)/.exec(first)?.[1] ?? "x";
    const made = messages.filter((m) => m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0).length;
    if (made >= CALLS) return text(`Run ${run} finished.`) as ScriptedReply;
    return call(PLAN[made]!, { folder, tag: `r${run}-c${made}` });
  };
}

const linesOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : []);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const countBy = (items: string[]) => items.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(!serverUrl)("durable runs under SIGKILL, on PostgreSQL", () => {
  const ANN = { id: "user-chaos", name: "Ann" };
  let chaosUrl: string;
  let dir: string;
  let tree: string;
  let effects: string;
  let database: Database;
  let web: Runtime;
  let model: LoopbackModel;
  const workers: Worker[] = [];

  const spawnWorker = (): Worker => {
    const dataDir = fs.mkdtempSync(path.join(dir, "worker-"));
    const worker = studioProcess({ DATABASE_URL: chaosUrl, QUIVER_SECRET_KEY: KEY, QUIVER_ROLE: "worker", QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: tree });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    process.env.QUIVER_SECRET_KEY ??= KEY;
    const url = new URL(serverUrl!);
    url.pathname = `/${DB_NAME}`;
    chaosUrl = url.toString();
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${DB_NAME}`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-chaos-"));
    tree = path.join(dir, "tools");
    // Inside the tree: the only folder a tool host's sandbox lets a tool write to besides its work folder.
    effects = path.join(tree, ".effects");
    fs.mkdirSync(effects, { recursive: true });
    fs.writeFileSync(path.join(tree, "ledger.py"), LEDGER);
    fs.writeFileSync(path.join(tree, "payments.py"), PAYMENTS);
    fs.writeFileSync(path.join(tree, "vault.py"), VAULT);
    model = await startLoopbackModel();
    model.fallback = script(effects);
    database = await openDatabase({ databaseUrl: chaosUrl, dataDir: dir });
    web = new Runtime({ db: database.db, channel: database.channel, tree, dataDir: dir, role: "web" });
    await web.connect();
    await database.db.insert(user).values({ id: ANN.id, email: "chaos@quiver.test", name: ANN.name, role: "builder" });
  }, 90_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
    await Promise.all(workers.map((w) => w.exited));
    await web?.shutdown();
    await database?.close();
    await model?.close();
    await closeAll();
    if (serverUrl) await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("R-queue-lease, R-journal-replay, R-journal-manual, R-journal-idempotent, R-queue-word: 30 runs survive workers killed at random, with every effect and approval applied at most once", async () => {
    const began = Date.now();
    const rng = seeded(Number(process.env.QUIVER_CHAOS_SEED ?? 20261201));
    let alive = [spawnWorker(), spawnWorker()];
    await expect.poll(() => alive.every((w) => w.ready), { timeout: 60_000, interval: 100 }).toBe(true);

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
    /** Everything stored, in order, grouped by run. */
    const eventsByRun = async () => {
      const rows = await database.db.select().from(runEvents).orderBy(asc(runEvents.id));
      const byRun = new Map<string, (typeof rows)[number][]>();
      for (const row of rows) byRun.set(row.runId, [...(byRun.get(row.runId) ?? []), row]);
      return byRun;
    };
    /** The person at the web process approves every Ask me once, through the runtime's decide (R-queue-word). */
    const approve = async () => {
      for (const [runId, rows] of await eventsByRun()) {
        const answered = new Set(rows.filter((e) => e.type === "approval_decided").map((e) => String(e.data.callId)));
        for (const asked of rows.filter((e) => e.type === "approval_requested")) {
          const callId = String(asked.data.callId);
          if (answered.has(callId) || decided.has(`${runId}/${callId}`)) continue;
          try {
            await web.decide(runId, callId, "once", ANN);
            decided.add(`${runId}/${callId}`);
          } catch {
            // Not waiting yet (its row lags its event by a moment): the next pass decides it.
          }
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

    let kills = 0;
    /** Runs a worker held when it was killed: each had to be taken over by another (R-queue-lease). */
    let takeovers = 0;
    let nextKill = Date.now() + 3000 + rng() * 5000;
    let started = 0;
    const chaosEnds = Date.now() + CHAOS_MS;
    for (let tick = 0; tick < 2000 && Date.now() < chaosEnds; tick++) {
      if (started < RUNS) {
        const { runId } = await web.start({ agentId, message: `Run ${started}: do the five steps.`, user: ANN });
        runIds.push(runId);
        started++;
      }
      await approve();
      if (kills < MAX_KILLS && Date.now() >= nextKill) {
        const holders = alive.filter((w) => w.ready && w.live.size > 0);
        const victim = holders[Math.floor(rng() * holders.length)];
        if (victim) {
          takeovers += victim.live.size;
          victim.child.kill("SIGKILL");
          await victim.exited;
          kills++;
          alive = [...alive.filter((w) => w !== victim), spawnWorker()];
          nextKill = Date.now() + 3000 + rng() * 6000;
        }
      }
      if (started === RUNS && (kills === MAX_KILLS || tick % 10 === 0) && (await unsettled()).length === 0) break;
      await sleep(250);
    }

    const settleEnds = Date.now() + SETTLE_MS;
    let open = await unsettled();
    for (let pass = 0; pass < 400 && open.length > 0 && Date.now() < settleEnds; pass++) {
      await approve();
      await sleep(250);
      open = await unsettled();
    }
    expect(open, "runs still running or waiting on something else").toEqual([]);

    const byRun = await eventsByRun();
    const manualLines = countBy(linesOf(path.join(effects, "manual.txt")));
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
      for (const a of rows.filter((e) => e.type === "approval_decided")) expect(decided.has(`${runId}/${String(a.data.callId)}`)).toBe(true);
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
    const handovers = runIds.reduce((n, id) => n + Math.max(0, (drivenBy.get(id)?.size ?? 1) - 1), 0);
    const seconds = Math.round((Date.now() - began) / 1000);
    process.stdout.write(
      `chaos: ${RUNS} runs, ${kills} kills, ${takeovers} takeovers, ${handovers} changes of process, ${decided.size} approvals; ${outcomes.done} done, ${outcomes.failed} failed, ${outcomes.waitingForPerson} waiting for a person; ${seconds} s\n`,
    );
  }, 240_000);
});
