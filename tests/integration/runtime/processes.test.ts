// Real studio processes (tests/support/studio-worker.ts, the studio's own start-up without the pages). On one
// PostgreSQL (DATABASE_URL): this test is the web process (it starts runs and drives none) and workers are separate
// processes; a worker killed with SIGKILL mid-run loses its lease, and the other takes the run over within the lease
// and a few seconds (R-queue-lease); a worker whose key is not the studio's refuses to start (R-queue-role). Those are
// skipped where no PostgreSQL is given, and everything made there is removed after. On the embedded database: one
// process, killed mid-run, whose next start takes the run back through the same queue.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { agents, runEvents, runs, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { parseEnv } from "@/server/env";
import { closeAll } from "@/server/host";
import { LEASE_SECONDS, Runtime, type RunEvent } from "@/server/runtime";
import { MARKED_FAILED } from "@/server/runtime/journal-recovery";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { call, startLoopbackModel, text, type LoopbackModel } from "@/tests/support/loopback-model";

// vitest.config.mts hands DATABASE_URL over under this name, so no test meant for PGlite writes to it.
const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
/** A run queue of this file's own: other files' processes on the shared database take only theirs. */
const QUEUE = "test-processes";
/** The key every run against the shared test database uses: its key check outlives the data folders. */
const KEY = "c".repeat(64);

const SLOW = `"""Takes its time."""\n\nimport time\n\n\ndef nap(seconds: float) -> str:\n    """Sleep a while.\n\n    Args:\n        seconds: How long.\n    """\n    time.sleep(seconds)\n    return "rested"\n`;

type Worker = { child: ChildProcess; pid: number; live: Set<string>; lines: Record<string, unknown>[]; exited: Promise<number | null> };

/** A studio process; tsx is a loader of this very process, so a kill reaches it (R-ops-tsx-child). */
function studioProcess(env: Record<string, string | undefined>): Worker {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join("tests", "support", "studio-worker.ts")], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const worker: Worker = { child, pid: child.pid!, live: new Set(), lines: [], exited: new Promise((resolve) => child.once("exit", (code: number | null) => resolve(code))) };
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (!line.startsWith("{")) continue;
      const parsed = JSON.parse(line) as Record<string, unknown>;
      worker.lines.push(parsed);
      if (Array.isArray(parsed.live)) worker.live = new Set(parsed.live as string[]);
    }
  });
  child.stderr!.on("data", () => undefined);
  return worker;
}

async function ready(worker: Worker): Promise<void> {
  await expect.poll(() => worker.lines.some((l) => l.ready), { timeout: 60_000, interval: 100 }).toBe(true);
}

describe.skipIf(!databaseUrl)("studio processes sharing PostgreSQL through the run queue", () => {
  const ANN = { id: `user-procs-${randomUUID().slice(0, 8)}`, name: "Ann" };
  let dir: string;
  let tree: string;
  let database: Database;
  let web: Runtime;
  let model: LoopbackModel;
  const workers: Worker[] = [];
  const made: string[] = [];

  const spawnWorker = (key = KEY): Worker => {
    const dataDir = fs.mkdtempSync(path.join(dir, "worker-"));
    const worker = studioProcess({ DATABASE_URL: databaseUrl, QUIVER_SECRET_KEY: key, QUIVER_ROLE: "worker", QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: tree, QUIVER_RUN_QUEUE: QUEUE });
    workers.push(worker);
    return worker;
  };
  const holderOf = async (runId: string, among: Worker[]): Promise<Worker> => {
    await expect.poll(() => among.filter((w) => w.live.has(runId)).length, { timeout: 20_000, interval: 50 }).toBe(1);
    return among.find((w) => w.live.has(runId))!;
  };
  const agent = async (tools: { entry: string }[] = []) => {
    const declaration = { name: `procs ${randomUUID().slice(0, 8)}`, model: { provider: "openai-compatible" as const, model: "loopback", base_url: model.url }, tools };
    const id = (await createAgent(database.db, ANN.id, declaration, { tree, workspace: workspaceDir(dir) })).id;
    made.push(id);
    return id;
  };
  const events = (runId: string): Promise<RunEvent[]> => web.log.stored(runId);
  const status = async (runId: string) => (await web.get(runId)).run.status;
  /** The manual call in flight at the takeover waits for the person (R-journal-manual), who fails it. */
  const failRecovery = async (runId: string) => {
    await expect.poll(async () => (await events(runId)).some((e) => e.type === "recovery_requested"), { timeout: 20_000, interval: 100 }).toBe(true);
    const card = (await events(runId)).find((e) => e.type === "recovery_requested")!;
    await web.recover(runId, String(card.data.callId), "fail", ANN);
  };

  beforeAll(async () => {
    process.env.QUIVER_SECRET_KEY ??= KEY;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-procs-"));
    tree = path.join(dir, "tools");
    fs.mkdirSync(tree);
    fs.writeFileSync(path.join(tree, "slow.py"), SLOW);
    model = await startLoopbackModel();
    database = await openDatabase({ databaseUrl, dataDir: dir });
    web = new Runtime({ db: database.db, channel: database.channel, tree, dataDir: dir, role: "web", queue: QUEUE });
    await web.connect();
    await database.db.insert(user).values({ id: ANN.id, email: `${ANN.id}@quiver.test`, name: ANN.name, role: "builder" });
  }, 60_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
    await web?.shutdown();
    if (database) {
      if (made.length > 0) {
        await database.db.delete(runs).where(inArray(runs.agentId, made));
        await database.db.delete(agents).where(inArray(agents.id, made));
      }
      await database.db.delete(user).where(eq(user.id, ANN.id));
      await database.close();
    }
    await model?.close();
    await closeAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("R-queue-role: a worker process drives the run this web process started, and the web process follows it", async () => {
    const worker = spawnWorker();
    await ready(worker);
    model.reply(text("Hello from a worker."));
    const { runId } = await web.start({ agentId: await agent(), message: "Hi.", user: ANN });
    await expect.poll(() => status(runId), { timeout: 20_000 }).toBe("done");
    expect(web.isLive(runId)).toBe(false);
    expect(worker.lines.some((l) => Array.isArray(l.live) && (l.live as string[]).includes(runId))).toBe(true);
    expect((await events(runId)).filter((e) => e.type === "message").map((e) => e.data.text)).toEqual(["Hi.", "Hello from a worker."]);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  }, 90_000);

  it(`R-queue-lease: a worker killed mid-call loses the run to the other within the lease (${LEASE_SECONDS} s) and a few seconds, and the run ends done`, async () => {
    const pair = [spawnWorker(), spawnWorker()];
    await Promise.all(pair.map(ready));
    model.reply(call("slow__nap", { seconds: 20 }), text("Done after the takeover."));
    const { runId } = await web.start({ agentId: await agent([{ entry: "tools/slow.py" }]), message: "Rest a while.", user: ANN });
    await expect.poll(async () => (await events(runId)).some((e) => e.type === "tool_started"), { timeout: 20_000, interval: 100 }).toBe(true);
    const holder = await holderOf(runId, pair);
    const other = pair.find((w) => w !== holder)!;

    holder.child.kill("SIGKILL");
    const killed = Date.now();
    await expect.poll(() => other.live.has(runId), { timeout: (LEASE_SECONDS + 10) * 1000, interval: 50 }).toBe(true);
    const takeover = Date.now() - killed;
    expect(takeover).toBeLessThan((LEASE_SECONDS + 5) * 1000);
    await failRecovery(runId);
    await expect.poll(() => status(runId), { timeout: 20_000 }).toBe("done");

    const all = await events(runId);
    expect(all.filter((e) => e.type === "run_started")).toHaveLength(1);
    const calls = all.filter((e) => e.type === "tool_call").map((e) => e.data.callId);
    const results = all.filter((e) => e.type === "tool_result");
    expect(results.map((e) => e.data.callId)).toEqual(calls);
    expect(results[0]!.data).toMatchObject({ outcome: "failed", text: `${MARKED_FAILED}.` });
    expect(all.filter((e) => e.type === "message").map((e) => e.data.role)).toEqual(["user", "assistant", "assistant"]);
    expect(all.at(-1)).toMatchObject({ type: "status", data: { status: "done" } });
    other.child.kill("SIGTERM");
    await other.exited;
  }, 120_000);

  it("R-queue-lease: a worker paused past its lease loses the run to the other, and on waking writes nothing more for it", async () => {
    const pair = [spawnWorker(), spawnWorker()];
    await Promise.all(pair.map(ready));
    // Long enough to outlast a slow look for the holder under load.
    model.reply(call("slow__nap", { seconds: 15 }), text("Done after the pause."));
    const { runId } = await web.start({ agentId: await agent([{ entry: "tools/slow.py" }]), message: "Rest a while.", user: ANN });
    await expect.poll(async () => (await events(runId)).some((e) => e.type === "tool_started"), { timeout: 20_000, interval: 100 }).toBe(true);
    const napping = Date.now();
    const holder = await holderOf(runId, pair);
    const other = pair.find((w) => w !== holder)!;

    // Paused while its call sleeps: the tool host goes on and answers while the worker cannot read it, so the answer
    // is waiting for it the moment it wakes.
    process.kill(holder.pid, "SIGSTOP");
    try {
      await expect.poll(() => other.live.has(runId), { timeout: (LEASE_SECONDS + 10) * 1000, interval: 50 }).toBe(true);
      await new Promise((r) => setTimeout(r, Math.max(0, napping + 16_000 - Date.now())));
    } finally {
      process.kill(holder.pid, "SIGCONT");
    }
    await failRecovery(runId);
    await expect.poll(() => status(runId), { timeout: 20_000 }).toBe("done");
    const all = await events(runId);
    // One answer for the call: the new holder's, never the paused one's late "rested".
    expect(all.filter((e) => e.type === "tool_result").map((e) => e.data)).toEqual([expect.objectContaining({ outcome: "failed", text: `${MARKED_FAILED}.` })]);
    expect(all.filter((e) => e.type === "message").map((e) => e.data.role)).toEqual(["user", "assistant", "assistant"]);
    await expect.poll(() => holder.live.has(runId), { timeout: 10_000, interval: 50 }).toBe(false);
    for (const w of pair) w.child.kill("SIGTERM");
    await Promise.all(pair.map((w) => w.exited));
  }, 120_000);

  it("R-queue-role: a worker whose QUIVER_SECRET_KEY is not the studio's refuses to start, saying so", async () => {
    const wrong = spawnWorker("d".repeat(64));
    expect(await wrong.exited).toBe(3);
    expect(wrong.lines.find((l) => l.refused)?.refused).toMatch(/^QUIVER_SECRET_KEY is not the key this studio's secrets were encrypted with/);
    expect(wrong.lines.some((l) => l.ready)).toBe(false);
  }, 60_000);
});

describe("one studio process on the embedded database", () => {
  it("R-queue-lease: a process killed mid-call takes the run back at its next start, once the lease has lapsed, and the run ends done", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-procs-pglite-"));
    const tree = path.join(dir, "tools");
    const dataDir = path.join(dir, "data");
    fs.mkdirSync(tree);
    // Safe to run again (R-journal-replay), so the next start reruns it rather than wait for a person.
    fs.writeFileSync(path.join(tree, "slow.py"), SLOW.replace("import time\n", "import time\n\nfrom quiver import tool\n").replace("def nap", '@tool(replay="safe")\ndef nap'));
    const model = await startLoopbackModel();
    const env = { QUIVER_SECRET_KEY: KEY, QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: tree };
    const started: Worker[] = [];
    try {
      // The run is written and queued before any studio process is up, as a request a moment before a crash leaves it.
      const database = await openDatabase({ dataDir });
      const person = { id: "user-pglite-procs", name: "Ann" };
      await database.db.insert(user).values({ id: person.id, email: "ann-pglite-procs@quiver.test", name: person.name, role: "builder" });
      const declaration = { name: "sleeper", model: { provider: "openai-compatible" as const, model: "loopback", base_url: model.url }, tools: [{ entry: "tools/slow.py" }] };
      const agentId = (await createAgent(database.db, person.id, declaration, { tree, workspace: workspaceDir(dataDir) })).id;
      const queuer = new Runtime({ db: database.db, tree, dataDir, role: "web" });
      model.reply(call("slow__nap", { seconds: 4 }), text("Done after the restart."));
      const { runId } = await queuer.start({ agentId, message: "Rest a while.", user: person });
      await queuer.shutdown();
      await database.close();

      const first = studioProcess(env);
      started.push(first);
      await expect.poll(() => first.live.has(runId), { timeout: 60_000, interval: 50 }).toBe(true);
      // Killed while its call sleeps: nothing is written, nothing given back.
      await new Promise((r) => setTimeout(r, 1_500));
      process.kill(first.pid, "SIGKILL");
      await first.exited;
      const second = studioProcess(env);
      started.push(second);
      await ready(second);
      await expect.poll(() => second.live.has(runId), { timeout: (LEASE_SECONDS + 10) * 1000, interval: 50 }).toBe(true);
      await expect.poll(() => second.live.has(runId), { timeout: 20_000, interval: 50 }).toBe(false);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);

      const after = await openDatabase({ dataDir });
      const [row] = await after.db.select().from(runs).where(eq(runs.id, runId));
      const stored = await after.db.select().from(runEvents).where(eq(runEvents.runId, runId)).orderBy(runEvents.id);
      await after.close();
      expect(row).toMatchObject({ status: "done" });
      expect(stored.filter((e) => e.type === "run_started")).toHaveLength(1);
      expect(stored.filter((e) => e.type === "tool_result").map((e) => e.data)).toEqual([expect.objectContaining({ outcome: "ok", text: "rested" })]);
    } finally {
      for (const w of started) if (w.child.exitCode === null) w.child.kill("SIGKILL");
      await model.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
