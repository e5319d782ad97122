// Every MCP server's one connection in this studio process (R-mcp-one-connection), by the row's id: what Try it, a
// run, a listing and the server's row all go through. A use reads the row first, so a server changed or deleted
// (here or by another process) is closed and, when changed, opened afresh with what the row says now.
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import type { Db } from "@/db/client";
import { env } from "@/server/env";
import { DEFAULT_LIMITS } from "@/server/host/command";
import { McpConnection, type CallOptions, type ConnectionOptions, type McpStatus } from "./connection";
import { findServer, noSuchServer } from "./registry";

export type PoolOptions = Partial<ConnectionOptions>;

const DEFAULTS: Omit<ConnectionOptions, "dataDir"> = {
  sandbox: true,
  limits: DEFAULT_LIMITS,
  connectTimeoutMs: 30_000,
  callTimeoutMs: 300_000,
  backoffMs: 1_000,
  maxBackoffMs: 60_000,
  waitForRestartMs: 10_000,
};

const NOT_STARTED: McpStatus = {
  state: "stopped",
  sentence: "Not started yet; it starts when first needed.",
  transport: null,
  pid: null,
  sandboxed: null,
  confinement: null,
  toolCount: null,
  toolsReadAt: null,
  lastExit: null,
  nextStartAt: null,
  stderr: "",
};

export class McpPool {
  private readonly connections = new Map<string, McpConnection>();
  private readonly options: ConnectionOptions;

  constructor(options: PoolOptions = {}) {
    this.options = { ...DEFAULTS, dataDir: options.dataDir ?? env().dataDir, ...options };
  }

  /** The row's connection, made for the row as it stands now. */
  private async connection(db: Db, id: string): Promise<McpConnection> {
    const row = await findServer(db, id);
    const held = this.connections.get(id);
    if (held && (!row || held.row.updatedAt.getTime() !== row.updatedAt.getTime())) {
      this.connections.delete(id);
      void held.close();
    }
    if (!row) throw noSuchServer(id);
    let connection = this.connections.get(id);
    if (!connection) {
      connection = new McpConnection(row, db, this.options);
      this.connections.set(id, connection);
    }
    return connection;
  }

  /** Where the server stands, without starting it. */
  status(id: string): McpStatus {
    return this.connections.get(id)?.status() ?? NOT_STARTED;
  }

  /** Start (or reach) the server and read its tools: "Connected over stdio: 12 tools." or why not. */
  async testConnection(db: Db, id: string): Promise<{ ok: boolean; sentence: string; status: McpStatus }> {
    const connection = await this.connection(db, id);
    const answer = await connection.test();
    return { ...answer, status: connection.status() };
  }

  async listTools(db: Db, id: string, options: { refresh?: boolean } = {}): Promise<{ tools: Tool[]; readAt: Date }> {
    return (await this.connection(db, id)).listTools(options);
  }

  async callTool(db: Db, id: string, name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    return (await this.connection(db, id)).callTool(name, args, options);
  }

  /** The values the server's row resolved to so far (its secrets), for the caller's masker (R-secret-mask). */
  resolvedValues(id: string): readonly string[] {
    return this.connections.get(id)?.resolvedValues() ?? [];
  }

  /** Called when the server's tools change (list_changed), until the returned unsubscribe. */
  async onToolsChanged(db: Db, id: string, listener: () => void): Promise<() => void> {
    return (await this.connection(db, id)).onToolsChanged(listener);
  }

  /** Stop the server; the next use starts a fresh one. */
  async restart(db: Db, id: string): Promise<McpStatus> {
    const connection = await this.connection(db, id);
    await connection.stop("Restarted; it starts again when next needed.");
    return connection.status();
  }

  /** Drop the connection of a row that changed or went away (its next use opens one for the row as it is). */
  async forget(id: string): Promise<void> {
    const held = this.connections.get(id);
    this.connections.delete(id);
    await held?.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((connection) => connection.close()));
  }
}

// On globalThis so a reload of this module in `next dev` does not orphan the servers already running.
const holder = globalThis as typeof globalThis & { __quiverMcp?: McpPool };

/** The studio process's pool, made on first use with the studio's own settings. */
export function mcpPool(): McpPool {
  holder.__quiverMcp ??= new McpPool();
  return holder.__quiverMcp;
}

/** Stop every MCP server this process started: at shutdown, and after tests. */
export async function closeMcpServers(): Promise<void> {
  const pool = holder.__quiverMcp;
  holder.__quiverMcp = undefined;
  await pool?.closeAll();
}
