// Published versions on a real PostgreSQL (DATABASE_URL) between two studio processes, each with its own data folder
// and neither with the tree folder: a version one process published is written into the other's fresh data folder
// and runs there (R-version-materialise), and a run keeps its version when the other process takes it over after a
// newer one was published (R-version-pinned). Versions are studio-wide, so the file makes a database of its own on
// DATABASE_URL's server and drops it after: no other file's runs see its versions.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { runs, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { parseEnv } from "@/server/env";
import { closeAll } from "@/server/host";
import { Runtime } from "@/server/runtime";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { publish } from "@/server/tree/publish";
import { call, startLoopbackModel, text, toolMessages, type LoopbackModel } from "@/tests/support/loopback-model";
import { ownDatabase } from "@/tests/support/own-database";
import { waitForEvent } from "./setup";

const serverUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
/** A name of this run's own, so two runs of the suite on one server do not meet. */
const own = serverUrl ? ownDatabase(serverUrl, `quiver_versions_${process.pid}_${randomUUID().slice(0, 8)}`) : null;

const which = (word: string) => `"""Which version of the tree this is."""


def which() -> str:
    """Say which version of the tree answered."""
    return "${word}"
`;

describe.skipIf(!serverUrl)("published versions between two processes on PostgreSQL", () => {
  const ann = { id: "user-versions", name: "Ann" };
  let dir: string;
  let tree: string;
  let model: LoopbackModel;
  let database: Database;
  let agentId: string;
  const runtimes: Runtime[] = [];

  const processWithout = async (name: string) => {
    const runtime = new Runtime({ db: database.db, tree: path.join(dir, "no-tree-here"), dataDir: path.join(dir, name), modelRetries: 0 });
    runtimes.push(runtime);
    await runtime.connect();
    return runtime;
  };
  const published = async (word: string) => {
    fs.writeFileSync(path.join(tree, "version.py"), which(word));
    return (await publish({ tree, dataDir: path.join(dir, "publisher"), message: `Version ${word}.`, db: database.db })).version!;
  };

  beforeAll(async () => {
    process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);
    await own!.create();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-versions-pg-"));
    tree = path.join(dir, "checkout", "tools");
    fs.mkdirSync(tree, { recursive: true });
    fs.mkdirSync(path.join(dir, "publisher"));
    fs.writeFileSync(path.join(tree, "version.py"), which("one"));
    model = await startLoopbackModel();
    database = await openDatabase({ databaseUrl: own!.url, dataDir: dir });
    await database.db.insert(user).values({ id: ann.id, email: `${ann.id}@quiver.test`, name: ann.name, role: "builder" });
    const declaration = { name: "versions", model: { provider: "openai-compatible", model: "loopback", base_url: model.url }, tools: [{ entry: "tools/version.py", permissions: { version__which: "ASK" as const } }] };
    agentId = (await createAgent(database.db, ann.id, declaration, { tree, workspace: workspaceDir(dir) })).id;
  });

  afterAll(async () => {
    for (const runtime of runtimes) await runtime.shutdown();
    await database?.close();
    await model?.close();
    await closeAll();
    await own?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("R-version-pinned: a run on version N, taken over by a process with a fresh data folder after N+1 was published, answers from N", async () => {
    const first = await published("one");
    const a = await processWithout("a");
    model.reply(call("version__which"), text("Version one."));
    const { runId } = await a.start({ agentId, message: "Which one?", user: ann, via: { kind: "api" } });
    const asked = await waitForEvent(a, runId, "approval_requested");
    expect(fs.existsSync(path.join(dir, "a", "versions", String(first), "tools", "version.py"))).toBe(true);

    expect(await published("two")).toBe(first + 1);
    await a.shutdown();
    const b = await processWithout("b");
    await expect.poll(() => b.isLive(runId), { timeout: 15_000 }).toBe(true);
    await b.decide(runId, asked.callId, "once", ann);
    await b.idle(runId);
    const [row] = await database.db.select().from(runs).where(eq(runs.id, runId));
    expect(row).toMatchObject({ status: "done", treeVersion: first });
    expect(toolMessages(model.requests.at(-1)!).map((m) => m.content)).toEqual(["one"]);
    expect(fs.readFileSync(path.join(dir, "b", "versions", String(first), "tools", "version.py"), "utf8")).toBe(which("one"));
  }, 90_000);
});
