// What the runtime's integration tests share: a scratch studio (PGlite in a temp folder, a tree of small Python
// tool files, the real tool host), the loopback model, a Runtime with fast voice timings, agents made through the
// real store, and ways to wait for a run's events. The tool files themselves stay in each test.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "@/db/client";
import { user } from "@/db/schema";
import type { AgentDeclarationInput } from "@/server/agents/declaration";
import { createAgent } from "@/server/agents/store";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { closeAll } from "@/server/host";
import { Runtime, type RunEvent, type RuntimeOptions } from "@/server/runtime";
import type { EventData, RunEventType } from "@/server/runtime/shapes";
import { startLoopbackModel, type LoopbackModel } from "@/tests/support/loopback-model";

// Before anything reads the configuration: one studio key for every runtime test (the key is cached per process).
process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);

export const ANN = { id: "user-ann", name: "Ann" };

export type Studio = {
  dir: string;
  tree: string;
  dataDir: string;
  database: Database;
  model: LoopbackModel;
  runtime: Runtime;
  /** A saved agent on the loopback model; returns its id. */
  agent(declaration: Partial<AgentDeclarationInput> & { tools: AgentDeclarationInput["tools"] }): Promise<string>;
  /** Start a run and wait for its loop to stop (done, failed, or waiting on the person). */
  run(agentId: string, message?: string): Promise<string>;
  events(runId: string): Promise<RunEvent[]>;
  close(): Promise<void>;
};

let agents = 0;

export async function studio(name: string, files: Record<string, string>, options: Partial<RuntimeOptions> = {}): Promise<Studio> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quiver-runtime-${name}-`));
  const tree = path.join(dir, "tools");
  const dataDir = path.join(dir, "data");
  fs.mkdirSync(tree, { recursive: true });
  for (const [file, source] of Object.entries(files)) fs.writeFileSync(path.join(tree, file), source);
  const database = await openDatabase({ dataDir });
  await database.db.insert(user).values({ id: ANN.id, email: "ann@quiver.test", name: ANN.name, role: "builder" });
  const model = await startLoopbackModel();
  const runtime = new Runtime({ db: database.db, tree, dataDir, voice: { firstMs: 300, everyMs: 400 }, modelRetries: 0, retryMs: 10, ...options });
  const s: Studio = {
    dir,
    tree,
    dataDir,
    database,
    model,
    runtime,
    async agent(declaration) {
      const made = await createAgent(
        s.database.db,
        ANN.id,
        { name: `agent ${++agents}`, model: { provider: "openai-compatible", model: "loopback", base_url: model.url }, ...declaration },
        { tree, workspace: workspaceDir(dataDir) },
      );
      return made.id;
    },
    async run(agentId, message = "Go.") {
      const { runId } = await s.runtime.start({ agentId, message, user: ANN });
      await s.runtime.idle(runId);
      return runId;
    },
    events: (runId) => s.runtime.log.stored(runId),
    async close() {
      await s.runtime.shutdown();
      await model.close();
      await closeAll();
      await s.database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return s;
}

export function dataOf<T extends RunEventType>(events: RunEvent[], type: T): EventData[T][] {
  return events.filter((e) => e.type === type).map((e) => e.data as EventData[T]);
}

/** The first event of the run (stored or live) that matches, waiting for it. */
export async function waitForEvent<T extends RunEventType>(runtime: Runtime, runId: string, type: T, match: (data: EventData[T]) => boolean = () => true, ms = 15_000): Promise<EventData[T]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    for await (const event of await runtime.subscribe(runId, null, controller.signal)) {
      if (event.type === type && match(event.data as EventData[T])) return event.data as EventData[T];
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  throw new Error(`timed out waiting for a ${type} event of run ${runId}`);
}

/** Resolves once the run's loop stops, with its status. */
export async function settled(s: Studio, runId: string) {
  await s.runtime.idle(runId);
  return (await s.runtime.get(runId)).run;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
