// What the MCP tests share: a scratch studio (database, data folder, key), the reference servers' entry points, and
// a reference server started over HTTP on a free port of 127.0.0.1.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { openDatabase, type Database } from "@/db/client";
import { McpPool, type PoolOptions } from "@/server/mcp/pool";

const modules = path.resolve(__dirname, "../../../node_modules/@modelcontextprotocol");

/** The reference servers' own bin entries (package.json "bin"), run with node rather than npx, which may go online. */
export const EVERYTHING = path.join(modules, "server-everything/dist/index.js");
export const MEMORY = path.join(modules, "server-memory/dist/index.js");
export const PROBE = path.join(__dirname, "servers/probe-server.mjs");
const LOOPBACK = path.join(__dirname, "servers/loopback-only.mjs");

export type Studio = { scratch: string; dataDir: string; database: Database; pool: McpPool; close(): Promise<void> };

/**
 * A scratch studio: its own database and data folder, and the studio key in the environment (as a deployment
 * sets it), so every path that reads secrets uses the same one. Call before anything reads the configuration.
 */
export function scratchEnv(prefix: string): string {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `quiver-${prefix}-`));
  process.env.QUIVER_DATA_DIR = path.join(scratch, "studio");
  process.env.QUIVER_TOOLS_DIR = path.join(scratch, "tools");
  process.env.QUIVER_SECRET_KEY = randomBytes(32).toString("hex");
  fs.mkdirSync(process.env.QUIVER_TOOLS_DIR, { recursive: true });
  return scratch;
}

export async function openStudio(scratch: string, options: PoolOptions = {}): Promise<Studio> {
  const dataDir = path.join(scratch, "studio");
  const database = await openDatabase({ dataDir: path.join(scratch, "db") });
  const pool = new McpPool({ dataDir, connectTimeoutMs: 15_000, ...options });
  return {
    scratch,
    dataDir,
    database,
    pool,
    async close() {
      await pool.closeAll();
      await database.close();
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function listening(port: number, within: number): Promise<void> {
  const until = Date.now() + within;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${within} ms`);
}

/** server-everything in one of its HTTP modes ("streamableHttp", "sse"), bound to 127.0.0.1 only. */
export async function everythingOverHttp(mode: "streamableHttp" | "sse"): Promise<{ url: string; child: ChildProcess; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", LOOPBACK, EVERYTHING, mode], {
    env: { PATH: process.env.PATH ?? "", PORT: String(port) } as Record<string, string> as NodeJS.ProcessEnv,
    stdio: ["ignore", "ignore", "ignore"],
  });
  await listening(port, 10_000);
  const url = mode === "sse" ? `http://127.0.0.1:${port}/sse` : `http://127.0.0.1:${port}/mcp`;
  return { url, child, stop: () => child.kill("SIGKILL") };
}

/** Wait until `check` holds, polling; fails with `what` after `within` ms. */
export async function until(check: () => boolean | Promise<boolean>, what: string, within = 10_000): Promise<void> {
  const end = Date.now() + within;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const textOf = (result: { content: Array<{ type: string; text?: string }> }) =>
  result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
