// The journal of steps across a takeover, with real studio processes on PostgreSQL (DATABASE_URL): a worker killed
// with SIGKILL while a call is in flight loses the run to the other, which replays the journal and goes on by the
// call's replay policy (R-journal-replay): a `manual` call waits for the person, who may run it again, mark it done
// or fail it (R-journal-manual); an `idempotent` one runs again under the same key (R-journal-idempotent); a `safe`
// one runs again. Skipped where no PostgreSQL is given; everything made there is removed after.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { agents, runs, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { parseEnv } from "@/server/env";
import { closeAll } from "@/server/host";
import { LEASE_SECONDS, Runtime, type RunEvent } from "@/server/runtime";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { call, startLoopbackModel, text, type LoopbackModel } from "@/tests/support/loopback-model";

const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
/** This file's own run queue: other files' processes on the shared database take only theirs. */
const QUEUE = "test-journal";
const KEY = "c".repeat(64);

/** Each tool appends a line to `path` (its effect), then waits while `hold` exists (at most 40 s). */
const wait = `\n\ndef _hold(hold: str) -> None:\n    for _ in range(400):\n        if not os.path.exists(hold):\n            return\n        time.sleep(0.1)\n`;
const LEDGER = `"""Writes to a ledger."""\n\nimport os\nimport time\n${wait}\n\ndef append(path: str, hold: str) -> str:\n    """Append a line.\n\n    Args:\n        path: The ledger.\n        hold: Wait while it exists.\n    """\n    with open(path, "a") as f:\n        f.write("line\\n")\n    _hold(hold)\n    return "appended"\n`;
const TALLY = `"""Counts, safely."""\n\nimport os\nimport time\nfrom quiver import tool\n${wait}\n\n@tool(replay="safe")\ndef count(path: str, hold: str) -> str:\n    """Count once more.\n\n    Args:\n        path: The tally.\n        hold: Wait while it exists.\n    """\n    with open(path, "a") as f:\n        f.write("tick\\n")\n    _hold(hold)\n    return "counted"\n`;
const PAYMENTS = `"""Pays, once per key."""\n\nimport os\nimport time\nfrom quiver import Context, tool\n${wait}\n\n@tool(replay="idempotent")\ndef pay(path: str, hold: str, ctx: Context) -> str:\n    """Pay once for this call, however often it is made.\n\n    Args:\n        path: The payments file.\n        hold: Wait while it exists.\n    """\n    with open(path + ".calls", "a") as f:\n        f.write(str(ctx.idempotency_key) + "\\n")\n    seen = open(path).read().split() if os.path.exists(path) else []\n    if ctx.idempotency_key not in seen:\n        with open(path, "a") as f:\n            f.write(str(ctx.idempotency_key) + "\\n")\n    _hold(hold)\n    return "paid"\n`;

type Worker = { child: ChildProcess; live: Set<string>; lines: Record<string, unknown>[]; exited: Promise<number | null> };

function studioProcess(env: Record<string, string | undefined>): Worker {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join("tests", "support", "studio-worker.ts")], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const worker: Worker = { child, live: new Set(), lines: [], exited: new Promise((resolve) => child.once("exit", (code: number | null) => resolve(code))) };
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

const linesOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

describe.skipIf(!databaseUrl)("the journal of steps across a takeover, on PostgreSQL", () => {
  const ANN = { id: `user-journal-${randomUUID().slice(0, 8)}`, name: "Ann" };
  let dir: string;
  let tree: string;
  let database: Database;
  let web: Runtime;
  let model: LoopbackModel;
  const workers: Worker[] = [];
  const made: string[] = [];

  const spawnWorker = (): Worker => {
    const dataDir = fs.mkdtempSync(path.join(dir, "worker-"));
    const worker = studioProcess({ DATABASE_URL: databaseUrl, QUIVER_SECRET_KEY: KEY, QUIVER_ROLE: "worker", QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: tree, QUIVER_RUN_QUEUE: QUEUE });
    workers.push(worker);
    return worker;
  };
  const agent = async (entry: string) => {
    const declaration = { name: `journal ${randomUUID().slice(0, 8)}`, model: { provider: "openai-compatible" as const, model: "loopback", base_url: model.url }, tools: [{ entry }] };
    const id = (await createAgent(database.db, ANN.id, declaration, { tree, workspace: workspaceDir(dir) })).id;
    made.push(id);
    return id;
  };
  const events = (runId: string): Promise<RunEvent[]> => web.log.stored(runId);
  const status = async (runId: string) => (await web.get(runId)).run.status;

  /** Starts a run of `name` with the file and hold given, kills its holder mid-call, and waits for the other to take it. */
  async function killMidCall(entry: string, name: string, reply: string) {
    const pair = [spawnWorker(), spawnWorker()];
    await Promise.all(pair.map((w) => expect.poll(() => w.lines.some((l) => l.ready), { timeout: 60_000, interval: 100 }).toBe(true)));
    // Inside the tree: the only folder a tool host's sandbox lets a tool write to besides its work folder.
    const file = path.join(tree, ".effects", `${randomUUID()}.txt`);
    const hold = `${file}.hold`;
    fs.writeFileSync(hold, "");
    model.reply(call(name, { path: file, hold }), text(reply));
    const { runId } = await web.start({ agentId: await agent(entry), message: "Go.", user: ANN });
    await expect.poll(() => linesOf(file).length + linesOf(`${file}.calls`).length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
    await expect.poll(() => pair.filter((w) => w.live.has(runId)).length, { timeout: 20_000, interval: 50 }).toBe(1);
    const holder = pair.find((w) => w.live.has(runId))!;
    const other = pair.find((w) => w !== holder)!;
    holder.child.kill("SIGKILL");
    await holder.exited;
    fs.rmSync(hold);
    await expect.poll(() => other.live.has(runId), { timeout: (LEASE_SECONDS + 15) * 1000, interval: 50 }).toBe(true);
    return { runId, file, other };
  }
  const recoveryOf = async (runId: string) => {
    await expect.poll(async () => (await events(runId)).some((e) => e.type === "recovery_requested"), { timeout: 20_000, interval: 100 }).toBe(true);
    return (await events(runId)).find((e) => e.type === "recovery_requested")!.data;
  };

  beforeAll(async () => {
    process.env.QUIVER_SECRET_KEY ??= KEY;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-journal-"));
    tree = path.join(dir, "tools");
    fs.mkdirSync(path.join(tree, ".effects"), { recursive: true });
    fs.writeFileSync(path.join(tree, "ledger.py"), LEDGER);
    fs.writeFileSync(path.join(tree, "tally.py"), TALLY);
    fs.writeFileSync(path.join(tree, "payments.py"), PAYMENTS);
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

  it("R-journal-manual: a manual call in flight at a takeover waits for the person, having run once; Run again runs it once more", async () => {
    const { runId, file, other } = await killMidCall("tools/ledger.py", "ledger__append", "Appended after the takeover.");
    const card = await recoveryOf(runId);
    expect(card).toMatchObject({ operation: "ledger__append", why: "restarted", round: 1 });
    await expect.poll(() => status(runId), { timeout: 10_000 }).toBe("waiting");
    expect(linesOf(file)).toHaveLength(1);
    await web.recover(runId, String(card.callId), "again", ANN);
    await expect.poll(() => status(runId), { timeout: 30_000 }).toBe("done");
    expect(linesOf(file)).toHaveLength(2);
    const results = (await events(runId)).filter((e) => e.type === "tool_result");
    expect(results.map((e) => e.data)).toEqual([expect.objectContaining({ outcome: "ok", text: "appended" })]);
    other.child.kill("SIGTERM");
    await other.exited;
  }, 120_000);

  it("R-journal-manual: Mark as done answers the model the person's result, and the call is not run again", async () => {
    const { runId, file, other } = await killMidCall("tools/ledger.py", "ledger__append", "Carrying on.");
    const card = await recoveryOf(runId);
    await web.recover(runId, String(card.callId), "done", ANN, "It ran: one line was appended.");
    await expect.poll(() => status(runId), { timeout: 30_000 }).toBe("done");
    expect(linesOf(file)).toHaveLength(1);
    const all = await events(runId);
    expect(all.filter((e) => e.type === "tool_result").map((e) => e.data)).toEqual([expect.objectContaining({ outcome: "ok", text: "It ran: one line was appended." })]);
    expect(all.filter((e) => e.type === "recovery_decided").map((e) => e.data)).toEqual([expect.objectContaining({ action: "done", by: ANN })]);
    // A second word on the same round is refused: it was settled.
    await expect(web.recover(runId, String(card.callId), "again", ANN)).rejects.toThrow();
    other.child.kill("SIGTERM");
    await other.exited;
  }, 120_000);

  it("R-journal-idempotent: an idempotent call in flight at a takeover runs again with the same key, so its effect applies once", async () => {
    const { runId, file, other } = await killMidCall("tools/payments.py", "payments__pay", "Paid.");
    await expect.poll(() => status(runId), { timeout: 30_000 }).toBe("done");
    const calls = linesOf(`${file}.calls`);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(calls[1]).toBe(calls[0]);
    expect(linesOf(file)).toEqual([calls[0]]);
    expect((await events(runId)).some((e) => e.type === "recovery_requested")).toBe(false);
    other.child.kill("SIGTERM");
    await other.exited;
  }, 120_000);

  it("R-journal-replay: a safe call in flight at a takeover is run again, and the run goes on without asking", async () => {
    const { runId, file, other } = await killMidCall("tools/tally.py", "tally__count", "Counted.");
    await expect.poll(() => status(runId), { timeout: 30_000 }).toBe("done");
    expect(linesOf(file)).toHaveLength(2);
    const all = await events(runId);
    expect(all.filter((e) => e.type === "tool_result").map((e) => e.data)).toEqual([expect.objectContaining({ outcome: "ok", text: "counted" })]);
    other.child.kill("SIGTERM");
    await other.exited;
  }, 120_000);
});
