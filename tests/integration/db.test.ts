// The database layer on the embedded PGlite always, and on PostgreSQL when DATABASE_URL is set: there too, two
// studio processes sharing it (the only file that writes to that database, so its tests never race another's).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { DataFolderLockedError } from "@/db/lock.mjs";
import { agents as agentsTable, audit, runs, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { recordAudit } from "@/server/audit/record";
import { parseEnv } from "@/server/env";
import { closeAll } from "@/server/host";
import { Runtime, type RunEvent } from "@/server/runtime";
import { call, startLoopbackModel, text, type LoopbackModel } from "@/tests/support/loopback-model";

const made: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-db-"));
  made.push(dir);
  return dir;
}
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe("the embedded database (PGlite)", () => {
  it("migrates a new data folder, nested folders included, and keeps rows across a restart", async () => {
    const dir = path.join(dataDir(), "nested", "data");
    const marker = randomUUID();
    const first = await openDatabase({ dataDir: dir });
    expect(first.kind).toBe("pglite");
    await recordAudit(first.db, { actor: "test", action: "test.persisted", target: marker });
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    const rows = await second.db.select().from(audit).where(eq(audit.target, marker));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: "test", action: "test.persisted", detail: {} });
    await second.close();
  });

  it("refuses to open a data folder another open studio holds, and opens it once released", async () => {
    const dir = dataDir();
    const first = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataFolderLockedError);
    await first.close();
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  it("applies the committed migrations again without change on every start", async () => {
    const dir = dataDir();
    await (await openDatabase({ dataDir: dir })).close();
    const reopened = await openDatabase({ dataDir: dir });
    await expect(reopened.db.select().from(audit)).resolves.toEqual([]);
    await reopened.close();
  });
});

// vitest.config.mts hands DATABASE_URL over under this name, so only this file writes to that database.
const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;

describe.skipIf(!databaseUrl)("PostgreSQL at DATABASE_URL", () => {
  it("runs the same migrations and stores and reads a row", async () => {
    const database = await openDatabase({ databaseUrl, dataDir: dataDir() });
    expect(database.kind).toBe("postgres");
    const marker = randomUUID();
    await recordAudit(database.db, { actor: "test", action: "test.persisted", target: marker, detail: { n: 1 } });
    const rows = await database.db.select().from(audit).where(eq(audit.target, marker));
    expect(rows).toEqual([expect.objectContaining({ action: "test.persisted", detail: { n: 1 } })]);
    await database.db.delete(audit).where(eq(audit.target, marker));
    await database.close();
  });
});

// Two studio processes on one PostgreSQL, as two Runtimes with their own connections in this test: a browser
// following a run through either sees its events live, the person's word reaches the process holding the run's job
// (R-queue-word), and a run whose process went away is taken by the other (R-queue-lease). Real processes killed
// mid-run are tests/integration/runtime/processes.test.ts's.
describe.skipIf(!databaseUrl)("two studio processes sharing PostgreSQL", () => {
  const TOOL = `"""Writes that ask first."""\n\n\ndef put(key: str) -> str:\n    """Write a value.\n\n    Args:\n        key: Which value.\n    """\n    return f"put {key}"\n`;
  const ANN = { id: "user-ann-processes", name: "Ann" };
  type Side = { database: Database; runtime: Runtime };
  let tree: string;
  let shared: string;
  let model: LoopbackModel;
  let a: Side;
  let b: Side;

  const side = async (): Promise<Side> => {
    const database = await openDatabase({ databaseUrl, dataDir: shared });
    // A queue of this file's own: other files' processes on this database take only theirs.
    const runtime = new Runtime({ db: database.db, channel: database.channel, tree, dataDir: shared, modelRetries: 0, queue: "test-db-processes" });
    await runtime.connect();
    return { database, runtime };
  };
  const agents: string[] = [];
  const agent = async () => {
    const id = (
      await createAgent(
        a.database.db,
        ANN.id,
        {
          name: `processes ${randomUUID().slice(0, 8)}`,
          model: { provider: "openai-compatible", model: "loopback", base_url: model.url },
          tools: [{ entry: "tools/box.py", permissions: { box__put: "ASK" } }],
        },
        { tree, workspace: workspaceDir(shared) },
      )
    ).id;
    agents.push(id);
    return id;
  };
  /** The first event of the run, as the runtime streams it, that matches. */
  const next = async (runtime: Runtime, runId: string, match: (e: RunEvent) => boolean): Promise<RunEvent> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 15_000);
    try {
      for await (const event of await runtime.subscribe(runId, null, controller.signal)) if (match(event)) return event;
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    throw new Error(`no matching event of run ${runId}`);
  };
  /** The run's status once it is one of these, whichever process drove it. */
  const reaches = async (runId: string, status: string): Promise<void> => {
    await expect.poll(async () => (await b.runtime.get(runId)).run.status, { timeout: 20_000 }).toBe(status);
  };

  beforeAll(async () => {
    process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);
    shared = dataDir();
    tree = path.join(shared, "tools");
    fs.mkdirSync(tree);
    fs.writeFileSync(path.join(tree, "box.py"), TOOL);
    model = await startLoopbackModel();
    a = await side();
    b = await side();
    await a.database.db.insert(user).values({ id: ANN.id, email: "ann-processes@quiver.test", name: ANN.name, role: "builder" }).onConflictDoNothing();
  });
  beforeEach(() => model.reset());
  afterAll(async () => {
    // The database outlives this file (the end-to-end tests start a studio on it, whose owner is made only while it
    // has no account): everything made here goes.
    if (a && agents.length > 0) {
      await a.database.db.delete(runs).where(inArray(runs.agentId, agents));
      await a.database.db.delete(agentsTable).where(inArray(agentsTable.id, agents));
    }
    await a?.database.db.delete(user).where(eq(user.id, ANN.id));
    for (const s of [a, b]) {
      await s?.runtime.shutdown();
      await s?.database.close();
    }
    await model?.close();
    await closeAll();
  });

  it("streams a run driven by one process to a watcher of the other, and the approval reaches whichever holds it", async () => {
    model.reply(call("box__put", { key: "k" }), text("done"));
    const { runId } = await a.runtime.start({ agentId: await agent(), message: "Go.", user: ANN });
    const asked = await next(b.runtime, runId, (e) => e.type === "approval_requested");
    const done = next(b.runtime, runId, (e) => e.type === "status" && e.data.status === "done");
    expect(a.runtime.isLive(runId) !== b.runtime.isLive(runId)).toBe(true);
    await b.runtime.decide(runId, String(asked.data.callId), "once", ANN);
    await done;
    await reaches(runId, "done");
    const results = (await b.runtime.get(runId)).events.filter((e) => e.type === "tool_result");
    expect(results.map((e) => e.data.text)).toEqual(["put k"]);
  });

  it("stops a run through either process, whichever holds it", async () => {
    model.reply(call("box__put", { key: "k" }), text("done"));
    const { runId } = await a.runtime.start({ agentId: await agent(), message: "Go.", user: ANN });
    await next(a.runtime, runId, (e) => e.type === "status" && e.data.status === "waiting");
    const other = a.runtime.isLive(runId) ? b : a;
    await other.runtime.cancel(runId, ANN);
    await reaches(runId, "cancelled");
  });

  it("gives the run of a process that went away to the other, which takes the decision", async () => {
    model.reply(call("box__put", { key: "k" }), text("done"));
    const { runId } = await a.runtime.start({ agentId: await agent(), message: "Go.", user: ANN });
    const asked = await next(a.runtime, runId, (e) => e.type === "approval_requested");
    await next(a.runtime, runId, (e) => e.type === "status" && e.data.status === "waiting");
    // The process holding it goes away and gives its job back; the other takes the run and waits on.
    const holder = a.runtime.isLive(runId) ? a : b;
    const other = holder === a ? b : a;
    await holder.runtime.shutdown();
    // The job given back is taken at the other's next look, a second at most when the machine is idle; the bound is
    // the lease's (R-queue-lease), so that a loaded machine, or a give-back that failed, still sees the takeover.
    await expect.poll(() => other.runtime.isLive(runId), { timeout: 20_000 }).toBe(true);
    await other.runtime.decide(runId, String(asked.data.callId), "once", ANN);
    await other.runtime.idle(runId);
    expect((await other.runtime.get(runId)).run.status).toBe("done");
    if (holder === a) a = await side();
    else b = await side();
  }, 60_000);
});
