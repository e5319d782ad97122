// Real studio processes (tests/support/studio-worker.ts, the studio's own start-up without the pages). On one
// PostgreSQL (DATABASE_URL): this test is the web process (it starts runs and drives none) and workers are separate
// processes; a worker killed with SIGKILL mid-run loses its lease, and the other takes the run over within the lease
// and a few seconds (R-queue-lease); a worker whose key is not the studio's refuses to start (R-queue-role). Those are
// skipped where no PostgreSQL is given, and everything made there is removed after. On the embedded database: one
// process, killed mid-run, whose next start takes the run back through the same queue. The tests mostly wait for
// leases to lapse; each has a queue, model and processes of its own, and they run one after another: a score of
// studio processes starting at once on a 2-core machine did not all get ready in time.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, it, type ExpectStatic } from "vitest";
import { openDatabase } from "@/db/client";
import { runEvents, runs, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { parseEnv } from "@/server/env";
import { LEASE_SECONDS, Runtime } from "@/server/runtime";
import { MARKED_FAILED } from "@/server/runtime/journal-recovery";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { call, startLoopbackModel, text } from "@/tests/support/loopback-model";
import { KEY, openQueueFile, ready, type QueueFile, type QueueStudio } from "@/tests/support/queue-studio";
import { studioProcess, type StudioProcess } from "@/tests/support/studio-process";

// vitest.config.mts hands DATABASE_URL over under this name, so no test meant for PGlite writes to it.
const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
const SLOW = `"""Takes its time."""\n\nimport time\n\n\ndef nap(seconds: float) -> str:\n    """Sleep a while.\n\n    Args:\n        seconds: How long.\n    """\n    time.sleep(seconds)\n    return "rested"\n`;

/** Waits until exactly one of `among` holds the run, and returns it. */
async function holderOf(expect: ExpectStatic, runId: string, among: StudioProcess[]): Promise<StudioProcess> {
  await expect.poll(() => among.filter((w) => w.live.has(runId)).length, { timeout: 20_000, interval: 50 }).toBe(1);
  return among.find((w) => w.live.has(runId))!;
}

/** The manual call in flight at the takeover waits for the person (R-journal-manual), who fails it. */
async function failRecovery(expect: ExpectStatic, studio: QueueStudio, person: QueueFile["person"], runId: string): Promise<void> {
  await expect.poll(async () => (await studio.events(runId)).some((e) => e.type === "recovery_requested"), { timeout: 20_000, interval: 100 }).toBe(true);
  const card = (await studio.events(runId)).find((e) => e.type === "recovery_requested")!;
  await studio.web.recover(runId, String(card.data.callId), "fail", person);
}

describe.skipIf(!databaseUrl)("studio processes sharing PostgreSQL through the run queue", () => {
  let file: QueueFile;
  beforeAll(async () => {
    file = await openQueueFile(databaseUrl!, "procs", { "slow.py": SLOW });
  }, 60_000);
  afterAll(async () => file?.close());

  it("R-queue-role: a worker process drives the run this web process started, and the web process follows it", async ({ expect }) => {
    const s = await file.open("test-processes-role");
    try {
      const worker = s.spawnWorker();
      await ready(expect, worker);
      s.model.reply(text("Hello from a worker."));
      const { runId } = await s.web.start({ agentId: await s.agent(), message: "Hi.", user: file.person });
      await expect.poll(() => s.status(runId), { timeout: 20_000 }).toBe("done");
      expect(s.web.isLive(runId)).toBe(false);
      expect(worker.lines.some((l) => Array.isArray(l.live) && (l.live as string[]).includes(runId))).toBe(true);
      expect((await s.events(runId)).filter((e) => e.type === "message").map((e) => e.data.text)).toEqual(["Hi.", "Hello from a worker."]);
      worker.child.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
    } finally {
      await s.close();
    }
  }, 90_000);

  it(`R-queue-lease: a worker killed mid-call loses the run to the other within the lease (${LEASE_SECONDS} s) and a few seconds, and the run ends done`, async ({ expect }) => {
    const s = await file.open("test-processes-kill");
    try {
      const pair = [s.spawnWorker(), s.spawnWorker()];
      await Promise.all(pair.map((w) => ready(expect, w)));
      s.model.reply(call("slow__nap", { seconds: 20 }), text("Done after the takeover."));
      const { runId } = await s.web.start({ agentId: await s.agent([{ entry: "tools/slow.py" }]), message: "Rest a while.", user: file.person });
      await expect.poll(async () => (await s.events(runId)).some((e) => e.type === "tool_started"), { timeout: 20_000, interval: 100 }).toBe(true);
      const holder = await holderOf(expect, runId, pair);
      const other = pair.find((w) => w !== holder)!;

      holder.child.kill("SIGKILL");
      const killed = Date.now();
      await expect.poll(() => other.live.has(runId), { timeout: (LEASE_SECONDS + 10) * 1000, interval: 50 }).toBe(true);
      const takeover = Date.now() - killed;
      expect(takeover).toBeLessThan((LEASE_SECONDS + 5) * 1000);
      await failRecovery(expect, s, file.person, runId);
      await expect.poll(() => s.status(runId), { timeout: 20_000 }).toBe("done");
      // The row says done a moment before the event saying so is stored.
      await expect.poll(async () => (await s.events(runId)).at(-1)?.type, { timeout: 10_000, interval: 50 }).toBe("status");

      const all = await s.events(runId);
      expect(all.filter((e) => e.type === "run_started")).toHaveLength(1);
      const calls = all.filter((e) => e.type === "tool_call").map((e) => e.data.callId);
      const results = all.filter((e) => e.type === "tool_result");
      expect(results.map((e) => e.data.callId)).toEqual(calls);
      expect(results[0]!.data).toMatchObject({ outcome: "failed", text: `${MARKED_FAILED}.` });
      expect(all.filter((e) => e.type === "message").map((e) => e.data.role)).toEqual(["user", "assistant", "assistant"]);
      expect(all.at(-1)).toMatchObject({ type: "status", data: { status: "done" } });
      other.child.kill("SIGTERM");
      await other.exited;
    } finally {
      await s.close();
    }
  }, 120_000);

  it("R-queue-lease: a worker paused past its lease loses the run to the other, and on waking writes nothing more for it", async ({ expect }) => {
    const s = await file.open("test-processes-pause");
    try {
      const pair = [s.spawnWorker(), s.spawnWorker()];
      await Promise.all(pair.map((w) => ready(expect, w)));
      // Long enough to outlast a slow look for the holder under load.
      s.model.reply(call("slow__nap", { seconds: 15 }), text("Done after the pause."));
      const { runId } = await s.web.start({ agentId: await s.agent([{ entry: "tools/slow.py" }]), message: "Rest a while.", user: file.person });
      await expect.poll(async () => (await s.events(runId)).some((e) => e.type === "tool_started"), { timeout: 20_000, interval: 100 }).toBe(true);
      const napping = Date.now();
      const holder = await holderOf(expect, runId, pair);
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
      await failRecovery(expect, s, file.person, runId);
      await expect.poll(() => s.status(runId), { timeout: 20_000 }).toBe("done");
      const all = await s.events(runId);
      // One answer for the call: the new holder's, never the paused one's late "rested".
      expect(all.filter((e) => e.type === "tool_result").map((e) => e.data)).toEqual([expect.objectContaining({ outcome: "failed", text: `${MARKED_FAILED}.` })]);
      expect(all.filter((e) => e.type === "message").map((e) => e.data.role)).toEqual(["user", "assistant", "assistant"]);
      await expect.poll(() => holder.live.has(runId), { timeout: 10_000, interval: 50 }).toBe(false);
      for (const w of pair) w.child.kill("SIGTERM");
      await Promise.all(pair.map((w) => w.exited));
    } finally {
      await s.close();
    }
  }, 120_000);

  it("R-queue-role: a worker whose QUIVER_SECRET_KEY is not the studio's refuses to start, saying so", async ({ expect }) => {
    const s = await file.open("test-processes-key");
    try {
      const wrong = s.spawnWorker("d".repeat(64));
      expect(await wrong.exited).toBe(3);
      expect(wrong.lines.find((l) => l.refused)?.refused).toMatch(/^QUIVER_SECRET_KEY is not the key this studio's secrets were encrypted with/);
      expect(wrong.lines.some((l) => l.ready)).toBe(false);
    } finally {
      await s.close();
    }
  }, 90_000);
});

describe("one studio process on the embedded database", () => {
  it("R-queue-lease: a process killed mid-call takes the run back at its next start, once the lease has lapsed, and the run ends done", async ({ expect }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-procs-pglite-"));
    const tree = path.join(dir, "tools");
    const dataDir = path.join(dir, "data");
    fs.mkdirSync(tree);
    // Safe to run again (R-journal-replay), so the next start reruns it rather than wait for a person.
    fs.writeFileSync(path.join(tree, "slow.py"), SLOW.replace("import time\n", "import time\n\nfrom quiver import tool\n").replace("def nap", '@tool(replay="safe")\ndef nap'));
    const model = await startLoopbackModel();
    const env = { QUIVER_SECRET_KEY: KEY, QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: tree };
    const started: StudioProcess[] = [];
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
      await ready(expect, second);
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
