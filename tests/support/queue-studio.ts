// Studio processes sharing one PostgreSQL through a run queue, as the tests of takeovers build them: this test
// process is the web process (it starts runs and drives none) and workers are studio processes of their own. One
// database connection and tool tree serve a test file; each test takes a queue, a web runtime, a loopback model and
// workers of its own, so tests of one file run side by side without taking each other's runs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { ExpectStatic } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { agents, runs, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { checkKey, parseKey } from "@/server/secrets/key";
import { closeAll } from "@/server/host";
import { Runtime, type RunEvent } from "@/server/runtime";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { startLoopbackModel, type LoopbackModel } from "@/tests/support/loopback-model";
import { studioProcess, type StudioProcess } from "@/tests/support/studio-process";

/** The key every run against the shared test database uses: its key check outlives the data folders. */
export const KEY = "c".repeat(64);

export type Person = { id: string; name: string };

/** One test's share: its own queue, web runtime, model and workers. */
export type QueueStudio = {
  web: Runtime;
  model: LoopbackModel;
  spawnWorker(key?: string): StudioProcess;
  agent(tools?: { entry: string }[]): Promise<string>;
  events(runId: string): Promise<RunEvent[]>;
  status(runId: string): Promise<string>;
  /** Stops its workers and web runtime; what it made in the database goes with the file's close. */
  close(): Promise<void>;
};

export type QueueFile = {
  person: Person;
  tree: string;
  database: Database;
  /** A test's share, on `queue` (a name no other test of any file uses). */
  open(queue: string): Promise<QueueStudio>;
  close(): Promise<void>;
};

/** Waits until the process says it is ready, or fails the test after a minute; `expect` is the test's own, as tests run side by side. */
export async function ready(expect: ExpectStatic, worker: StudioProcess): Promise<void> {
  await expect.poll(() => worker.lines.some((l) => l.ready), { timeout: 60_000, interval: 100 }).toBe(true);
}

/** A file's database, person and tool tree (`files` written under tools/, `folders` made there first). */
export async function openQueueFile(databaseUrl: string, name: string, files: Record<string, string>, folders: string[] = []): Promise<QueueFile> {
  process.env.QUIVER_SECRET_KEY ??= KEY;
  const person = { id: `user-${name}-${randomUUID().slice(0, 8)}`, name: "Ann" };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quiver-${name}-`));
  const tree = path.join(dir, "tools");
  for (const folder of ["", ...folders]) fs.mkdirSync(path.join(tree, folder), { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(tree, file), text);
  const database = await openDatabase({ databaseUrl, dataDir: dir });
  // The first process to start records its key as the studio's. One test starts a worker with the wrong key on
  // purpose: record the right one first, so the order tests start processes in cannot matter.
  await checkKey(database.db, parseKey(KEY, "the tests' key"), "env");
  await database.db.insert(user).values({ id: person.id, email: `${person.id}@quiver.test`, name: person.name, role: "builder" });
  const made: string[] = [];
  const shares: QueueStudio[] = [];

  const open = async (queue: string): Promise<QueueStudio> => {
    const model = await startLoopbackModel();
    const web = new Runtime({ db: database.db, channel: database.channel, tree, dataDir: dir, role: "web", queue });
    await web.connect();
    const workers: StudioProcess[] = [];
    let closing: Promise<void> | null = null;
    const share: QueueStudio = {
      web,
      model,
      spawnWorker: (key = KEY) => {
        const dataDir = fs.mkdtempSync(path.join(dir, "worker-"));
        const worker = studioProcess({ DATABASE_URL: databaseUrl, QUIVER_SECRET_KEY: key, QUIVER_ROLE: "worker", QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: tree, QUIVER_RUN_QUEUE: queue });
        workers.push(worker);
        return worker;
      },
      agent: async (tools = []) => {
        const declaration = { name: `${name} ${randomUUID().slice(0, 8)}`, model: { provider: "openai-compatible" as const, model: "loopback", base_url: model.url }, tools };
        const id = (await createAgent(database.db, person.id, declaration, { tree, workspace: workspaceDir(dir) })).id;
        made.push(id);
        return id;
      },
      events: (runId) => web.log.stored(runId),
      status: async (runId) => (await web.get(runId)).run.status,
      close: () =>
        (closing ??= (async () => {
          for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
          await web.shutdown();
          await model.close();
        })()),
    };
    shares.push(share);
    return share;
  };

  const close = async () => {
    for (const share of shares) await share.close().catch(() => undefined);
    if (made.length > 0) {
      await database.db.delete(runs).where(inArray(runs.agentId, made));
      await database.db.delete(agents).where(inArray(agents.id, made));
    }
    await database.db.delete(user).where(eq(user.id, person.id));
    await database.close();
    await closeAll();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { person, tree, database, open, close };
}
