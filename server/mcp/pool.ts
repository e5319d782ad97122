// Every MCP server's one connection in this studio process (R-mcp-one-connection), by the row's id: what Try it, a
// run, a listing and the server's row all go through. A use reads the row first, so a server changed or deleted is
// closed and, when changed, opened afresh with what the row says now. The read stands for the uses of the next
// second unless this process changes a row meanwhile: a read per call would cost more than the call (a no-op over
// stdio takes a fifth of a millisecond, a read of the row on the embedded database about one).
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import type { Db } from "@/db/client";
import { env } from "@/server/env";
import { DEFAULT_LIMITS } from "@/server/host/command";
import { McpConnection, type CallOptions, type ConnectionOptions, type McpStatus } from "./connection";
import { findServer, noSuchServer, rowWrites } from "./registry";

export type PoolOptions = Partial<ConnectionOptions> & {
  /** How long a read of a row stands: what another studio process sharing the database changed is seen within it. */
  rowFreshMs?: number;
};

const ROW_FRESH_MS = 1_000;

/** When the pool last read a held connection's row: the clock, this process's row writes by then, the database. */
type Checked = { at: number; writes: number; db: Db };

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
  private readonly checked = new Map<string, Checked>();
  private readonly options: ConnectionOptions;
  private readonly rowFreshMs: number;

  constructor({ rowFreshMs = ROW_FRESH_MS, ...options }: PoolOptions = {}) {
    this.options = { ...DEFAULTS, dataDir: options.dataDir ?? env().dataDir, ...options };
    this.rowFreshMs = rowFreshMs;
  }

  /** The row's connection, made for the row as it stands now (as read within the last rowFreshMs). */
  private async connection(db: Db, id: string): Promise<McpConnection> {
    const fresh = this.connections.get(id);
    const last = this.checked.get(id);
    if (fresh && last && last.db === db && last.writes === rowWrites() && performance.now() - last.at < this.rowFreshMs) return fresh;
    // Taken before the read: a write that lands during it makes the next use read again.
    const checked: Checked = { at: performance.now(), writes: rowWrites(), db };
    const row = await findServer(db, id);
    const held = this.connections.get(id);
    if (held && (!row || held.row.updatedAt.getTime() !== row.updatedAt.getTime())) {
      this.connections.delete(id);
      this.checked.delete(id);
      void held.close();
    }
    if (!row) throw noSuchServer(id);
    let connection = this.connections.get(id);
    if (!connection) {
      connection = new McpConnection(row, db, this.options);
      this.connections.set(id, connection);
    }
    this.checked.set(id, checked);
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
    this.checked.delete(id);
    await held?.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    this.checked.clear();
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
