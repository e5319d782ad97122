// stdio MCP servers nobody here wrote (server-everything), and a probe written with the official SDK: one shared
// connection, tools listed and called with progress, a call cancelled, a server killed mid-call and restarted, the
// scrubbed environment, the sandbox, and idle stop with a start on demand.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit } from "@/db/schema";
import { probeSandbox } from "@/server/host/sandbox";
import { McpPool } from "@/server/mcp/pool";
import { createServer } from "@/server/mcp/registry";
import { createSecret } from "@/server/secrets/store";
import { EVERYTHING, MEMORY, openStudio, PROBE, scratchEnv, textOf, until, type Studio } from "./helpers";

const scratch = scratchEnv("mcp-stdio");
const TOKEN = "probe-token-Zq81vXw3";
let studio: Studio;
let everything: string;
let probe: string;
const probeCwd = path.join(scratch, "probe-cwd");
const marker = path.join(probeCwd, "marker.txt");

beforeAll(async () => {
  studio = await openStudio(scratch);
  const db = studio.database.db;
  fs.mkdirSync(probeCwd);
  await createSecret(db, "admin-1", { name: "PROBE_TOKEN", value: TOKEN });
  everything = (await createServer(db, "admin-1", { name: "everything", transport: { type: "stdio", command: "node", args: [EVERYTHING, "stdio"] } })).id;
  probe = (
    await createServer(db, "admin-1", {
      name: "probe",
      idleStopS: 1,
      transport: {
        type: "stdio",
        command: "node",
        args: [PROBE],
        cwd: probeCwd,
        env: { PROBE_TOKEN: "${PROBE_TOKEN}", MARKER_FILE: marker, GREETING: "hello" },
      },
    })
  ).id;
});

afterAll(async () => {
  await studio.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("a stdio MCP server (R-mcp-one-connection)", () => {
  it("tests the connection with a sentence naming the transport and the tool count", { timeout: 30_000 }, async () => {
    const answer = await studio.pool.testConnection(studio.database.db, everything);
    expect(answer.ok).toBe(true);
    expect(answer.sentence).toMatch(/^Connected over stdio: \d+ tools\.$/);
    expect(answer.status).toMatchObject({ state: "connected", transport: "stdio" });
    expect(answer.status.pid).toEqual(expect.any(Number));
  });

  it("lists its tools with when they were read, served from the cache until they change", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    const first = await studio.pool.listTools(db, everything);
    expect(first.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "trigger-long-running-operation"]));
    expect(first.readAt).toBeInstanceOf(Date);
    const again = await studio.pool.listTools(db, everything);
    expect(again.readAt).toEqual(first.readAt);
    const pid = studio.pool.status(everything).pid;
    await studio.pool.callTool(db, everything, "echo", { message: "x" });
    expect(studio.pool.status(everything).pid).toBe(pid);
  });

  it("calls echo, and a long-running tool whose progress lines arrive as they are sent", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    expect(textOf(await studio.pool.callTool(db, everything, "echo", { message: "hi there" }))).toBe("Echo: hi there");
    const progress: number[] = [];
    const result = await studio.pool.callTool(db, everything, "trigger-long-running-operation", { duration: 1, steps: 4 }, {
      onProgress: (p) => progress.push(p.progress),
    });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toMatch(/Long running operation completed/);
    expect(progress).toEqual([1, 2, 3, 4]);
  });

  it("answers a server killed mid-call with a sentence that it may have partly run, and serves the next call after the restart (R-mcp-restart-backoff)", { timeout: 30_000 }, async () => {
    const db = studio.database.db;
    const pid = studio.pool.status(everything).pid!;
    const call = studio.pool.callTool(db, everything, "trigger-long-running-operation", { duration: 5, steps: 5 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(pid, "SIGKILL");
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The MCP server everything stopped while running trigger-long-running-operation \(.*SIGKILL.*\); the studio restarts it; it may have partly run/);
    const status = studio.pool.status(everything);
    expect(status.lastExit?.reason).toMatch(/SIGKILL/);
    expect(textOf(await studio.pool.callTool(db, everything, "echo", { message: "after" }))).toBe("Echo: after");
    expect(studio.pool.status(everything).pid).not.toBe(pid);
  });
});

describe("server-memory", () => {
  it("keeps what it was told between calls of its one connection, in the file its row names", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    const folder = path.join(scratch, "memory");
    fs.mkdirSync(folder);
    const row = await createServer(db, "admin-1", {
      name: "memory",
      transport: { type: "stdio", command: "node", args: [MEMORY], cwd: folder, env: { MEMORY_FILE_PATH: path.join(folder, "memory.jsonl") } },
    });
    const made = await studio.pool.callTool(db, row.id, "create_entities", { entities: [{ name: "Quiver", entityType: "studio", observations: ["builds agents"] }] });
    expect(made.isError).not.toBe(true);
    expect(textOf(await studio.pool.callTool(db, row.id, "read_graph", {}))).toContain("builds agents");
    expect(fs.readFileSync(path.join(folder, "memory.jsonl"), "utf8")).toContain("Quiver");
  });
});

describe("a tool list that changes", () => {
  it("is read again after notifications/tools/list_changed, with a later time", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    const first = await studio.pool.listTools(db, probe);
    expect(first.tools.map((t) => t.name)).not.toContain("extra-1");
    const changed = new Promise<void>((resolve) => void studio.pool.onToolsChanged(db, probe, resolve));
    expect(textOf(await studio.pool.callTool(db, probe, "add-tool", {}))).toBe("added extra-1");
    await changed;
    expect(studio.pool.status(probe).toolCount).toBeNull();
    const second = await studio.pool.listTools(db, probe);
    expect(second.tools.map((t) => t.name)).toContain("extra-1");
    expect(second.readAt.getTime()).toBeGreaterThan(first.readAt.getTime());
  });
});

describe("a command that exits at start (R-mcp-restart-backoff)", () => {
  it("answers with its exit code and last stderr line, and waits out its backoff before trying again", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    const row = await createServer(db, "admin-1", {
      name: "broken",
      transport: { type: "stdio", command: "node", args: ["-e", "console.error('starting'); console.error('no config file found'); process.exit(1)"] },
    });
    const pool = new McpPool({ dataDir: studio.dataDir, waitForRestartMs: 0, backoffMs: 5_000 });
    try {
      const answer = await pool.testConnection(db, row.id);
      expect(answer).toMatchObject({ ok: false, sentence: "The command exited with code 1: no config file found" });
      expect(pool.status(row.id)).toMatchObject({ state: "failed", sentence: answer.sentence, nextStartAt: expect.any(Date) });
      const call = await pool.callTool(db, row.id, "anything", {});
      expect(textOf(call)).toMatch(/^The MCP server broken is not available, so anything did not run: The command exited with code 1: no config file found\. The studio tries again in [45] s\.$/);
    } finally {
      await pool.closeAll();
    }
  });
});

describe("what a stdio server is started with", () => {
  it("sees only the row's variables (secrets resolved), PATH and HOME: no studio key, no database URL (R-mcp-stdio-env)", { timeout: 20_000 }, async () => {
    process.env.DATABASE_URL = "postgres://studio:secret@127.0.0.1/studio";
    try {
      const result = await studio.pool.callTool(studio.database.db, probe, "environment", {});
      const seen = JSON.parse(textOf(result)) as { env: Record<string, string>; cwd: string; tokenSha256: string };
      const home = path.join(studio.dataDir, "mcp", probe);
      // bubblewrap sets PWD to the folder it starts the server in, which is the server's own working folder.
      const { PWD, ...given } = seen.env;
      if (PWD !== undefined) expect(PWD).toBe(probeCwd);
      expect(Object.keys(given).sort()).toEqual(["GREETING", "HOME", "MARKER_FILE", "PATH", "PROBE_TOKEN"]);
      expect(seen.env).toMatchObject({ GREETING: "hello", HOME: home });
      expect(seen.tokenSha256).toBe(createHash("sha256").update(TOKEN).digest("hex"));
      expect(seen.env.PROBE_TOKEN).toBe("***"); // what the server answers is masked
      expect(seen.cwd).toBe(probeCwd);
    } finally {
      delete process.env.DATABASE_URL;
    }
  });

  it("masks the secret in everything it shows: stderr, status, the call's result; the use is audited", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    const status = studio.pool.status(probe);
    expect(status.stderr).toContain("TOKEN_SEEN=***");
    expect(JSON.stringify(status)).not.toContain(TOKEN);
    const result = await studio.pool.callTool(db, probe, "environment", {});
    expect(textOf(result)).not.toContain(TOKEN);
    const rows = await db.select().from(audit);
    expect(rows.filter((row) => row.action === "secret.used" && row.target === "PROBE_TOKEN")[0]?.detail).toMatchObject({ via: "mcp-server", tool: "probe" });
  });

  it("runs inside bubblewrap where it works: its own folders visible, the studio's database and data folder not", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    const sandbox = await probeSandbox(process.env.PATH ?? "");
    const database = path.join(studio.scratch, "db");
    const result = await studio.pool.callTool(db, probe, "look", { paths: [probeCwd, path.join(studio.dataDir, "mcp", probe), database, EVERYTHING] });
    const status = studio.pool.status(probe);
    expect(status.sandboxed).toBe(sandbox.bwrap !== null);
    if (!sandbox.bwrap) return void expect(status.confinement).toMatch(/bubblewrap/);
    expect(JSON.parse(textOf(result))).toEqual({ [probeCwd]: true, [path.join(studio.dataDir, "mcp", probe)]: true, [database]: false, [EVERYTHING]: true });
    expect(fs.existsSync(database)).toBe(true);
  });
});

describe("a call cancelled mid-way", () => {
  it("stops at once, and the server hears notifications/cancelled", { timeout: 20_000 }, async () => {
    const controller = new AbortController();
    const lines: string[] = [];
    const call = studio.pool.callTool(studio.database.db, probe, "wait", { seconds: 10 }, {
      signal: controller.signal,
      onProgress: (p) => {
        lines.push(p.message ?? "");
        if (lines.length === 3) controller.abort(new Error("stopped by the test"));
      },
    });
    await expect(call).rejects.toThrow("stopped by the test");
    expect(lines.slice(0, 3)).toEqual(["step 1", "step 2", "step 3"]);
    await until(() => fs.existsSync(marker) && fs.readFileSync(marker, "utf8").includes("cancelled after"), "the server to record the cancellation", 5_000);
  });
});

describe("idle stop (R-mcp-idle-stop)", () => {
  it("stops a server unused for its idle time, and starts it again on the next use", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    await studio.pool.callTool(db, probe, "environment", {});
    const pid = studio.pool.status(probe).pid;
    await until(() => studio.pool.status(probe).state === "stopped", "the idle stop", 5_000);
    expect(studio.pool.status(probe).sentence).toBe("Stopped after 1 s without use; it starts again when next needed.");
    const result = await studio.pool.callTool(db, probe, "environment", {});
    expect(result.isError).not.toBe(true);
    expect(studio.pool.status(probe)).toMatchObject({ state: "connected" });
    expect(studio.pool.status(probe).pid).not.toBe(pid);
  });
});
