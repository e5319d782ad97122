// Which tree a run uses, on the embedded database: before any publish the working tree, and a process without the
// tree folder refuses with why (R-version-none); a published version stored in the database and written into a fresh
// data folder by a process that has no tree folder (R-version-stored, R-version-materialise); a run keeps its version
// after a newer one is published and another process takes it over (R-version-pinned); a developer's playground run
// uses the working tree (R-version-working).
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runs, treeVersions } from "@/db/schema";
import { hostFor } from "@/server/host";
import { Runtime } from "@/server/runtime";
import { IDLE_MS, KEPT_HOSTS, Versions } from "@/server/tree/materialise";
import { publish } from "@/server/tree/publish";
import { call, text, toolMessages } from "@/tests/support/loopback-model";
import { ANN, studio, waitForEvent, type Studio } from "./setup";

const which = (word: string) => `"""Which version of the tree this is."""


def which() -> str:
    """Say which version of the tree answered."""
    return "${word}"
`;

let s: Studio;
let agentId: string;
let runtime: Runtime | null = null;
let folders = 0;

/** Another studio process on the same database: its own data folder, and a tree folder only when given one. */
async function processWith(tree: string | null): Promise<Runtime> {
  await runtime?.shutdown();
  const dataDir = path.join(s.dir, `process-${++folders}`);
  runtime = new Runtime({ db: s.database.db, tree: tree ?? path.join(s.dir, "no-tree-here"), dataDir, voice: { firstMs: 300, everyMs: 400 }, modelRetries: 0 });
  await runtime.connect();
  return runtime;
}

const dataDirOf = () => path.join(s.dir, `process-${folders}`);

async function answered(r: Runtime, input: Parameters<Runtime["start"]>[0]) {
  const { runId } = await r.start(input);
  await r.idle(runId);
  const [row] = await s.database.db.select().from(runs).where(eq(runs.id, runId));
  return { row: row!, said: toolMessages(s.model.requests.at(-1)!).map((m) => m.content) };
}

const viaApi = () => ({ agentId, message: "Which one?", user: ANN, via: { kind: "api" as const } });

beforeAll(async () => {
  s = await studio("versions", { "version.py": which("one") });
  agentId = await s.agent({ tools: [{ entry: "tools/version.py" }] });
});
afterAll(async () => {
  await runtime?.shutdown();
  await s?.close();
});

const rewrite = (word: string) => fs.writeFileSync(path.join(s.tree, "version.py"), which(word));
const published = (message: string) => publish({ tree: s.tree, dataDir: s.dataDir, message, db: s.database.db });

describe("the tree a run uses", () => {
  it("R-version-none: before any publish a run uses the working tree, and a process without the tree folder refuses it with why", async () => {
    const here = await processWith(s.tree);
    s.model.reply(call("version__which"), text("The working tree."));
    const first = await answered(here, viaApi());
    expect(first.row).toMatchObject({ status: "done", treeVersion: null });
    expect(first.said).toEqual(["one"]);

    const elsewhere = await processWith(null);
    const { runId } = await elsewhere.start(viaApi());
    await elsewhere.idle(runId);
    const run = (await elsewhere.get(runId)).run;
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/nothing has been published yet, and this studio process has no tool tree at .*: publish the tree from the Tools page/);
  }, 60_000);

  it("R-version-materialise: a published version is stored whole and written into a fresh data folder by a process with no tree folder", async () => {
    const v1 = await published("First version.");
    expect(v1.version).toBe(1);
    const [stored] = await s.database.db.select().from(treeVersions).where(eq(treeVersions.number, 1));
    expect(stored).toMatchObject({ commit: v1.commit, message: "First version.", files: { "version.py": which("one") } });

    const worker = await processWith(null);
    s.model.reply(call("version__which"), text("Version one."));
    const { row, said } = await answered(worker, viaApi());
    expect(row).toMatchObject({ status: "done", treeVersion: 1 });
    expect(said).toEqual(["one"]);
    expect(fs.readFileSync(path.join(dataDirOf(), "versions", "1", "tools", "version.py"), "utf8")).toBe(which("one"));
    expect((await worker.get(row.id)).run.treeVersion).toBe(1);
  }, 60_000);

  it("R-version-pinned: a run keeps version 1 after version 2 is published and another process takes it over", async () => {
    const asking = await s.agent({ tools: [{ entry: "tools/version.py", permissions: { version__which: "ASK" } }] });
    const first = await processWith(null);
    s.model.reply(call("version__which"), text("Still version one."));
    const { runId } = await first.start({ agentId: asking, message: "Which one?", user: ANN, via: { kind: "api" } });
    const asked = await waitForEvent(first, runId, "approval_requested");

    rewrite("two");
    expect((await published("Second version.")).version).toBe(2);
    // The holder goes away; another process, with no tree folder either, takes the run over (R-queue-lease).
    const second = await processWith(null);
    await expect.poll(() => second.isLive(runId), { timeout: 10_000 }).toBe(true);
    await second.decide(runId, asked.callId, "once", ANN);
    await second.idle(runId);
    const [row] = await s.database.db.select().from(runs).where(eq(runs.id, runId));
    expect(row).toMatchObject({ status: "done", treeVersion: 1 });
    expect(toolMessages(s.model.requests.at(-1)!).map((m) => m.content)).toEqual(["one"]);

    s.model.reply(call("version__which"), text("Version two."));
    const next = await answered(second, viaApi());
    expect(next.row.treeVersion).toBe(2);
    expect(next.said).toEqual(["two"]);
  }, 90_000);

  it("R-version-working: a developer's playground run uses the working tree, a builder's the published version", async () => {
    rewrite("three, not published");
    const here = await processWith(s.tree);
    s.model.reply(call("version__which"), text("The working tree."));
    const developer = await answered(here, { agentId, message: "Which one?", user: ANN, via: { kind: "playground" }, tree: "working" });
    expect(developer.row).toMatchObject({ status: "done", treeVersion: null });
    expect(developer.said).toEqual(["three, not published"]);
    expect((await here.get(developer.row.id)).run.treeVersion).toBeNull();

    s.model.reply(call("version__which"), text("Version two."));
    const builder = await answered(here, { agentId, message: "Which one?", user: ANN, via: { kind: "playground" } });
    expect(builder.row.treeVersion).toBe(2);
    expect(builder.said).toEqual(["two"]);
  }, 60_000);
});

describe("the hosts of versions", () => {
  it("R-version-materialise: keeps the hosts of the few most recently used versions running and stops one idle too long", async () => {
    let now = Date.now();
    const versions = new Versions({ db: s.database.db, dataDir: path.join(s.dir, "hosts"), now: () => now });
    try {
      const one = await versions.tree(1);
      await hostFor(one).ready();
      expect(hostFor(one).status.pid).not.toBeNull();
      now += 1_000;
      await versions.tree(2);
      expect(versions.kept()).toEqual([2, 1]);
      now += IDLE_MS + 1_000;
      await versions.tree(2);
      expect(versions.kept()).toEqual([2]);
      expect(hostFor(one).status.pid).toBeNull();
      // Stopped, not gone: the next run on version 1 starts its host again.
      expect((await hostFor(await versions.tree(1)).catalog()).files.map((f) => f.path)).toEqual(["version.py"]);
      expect(KEPT_HOSTS).toBe(3);
    } finally {
      versions.close();
    }
  }, 60_000);
});
