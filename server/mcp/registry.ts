// The registry of MCP servers (Settings → MCP servers): create, change, delete, list, and import an mcp.json. Every
// check runs before anything is written, and a refusal names each field at fault (R-mcp-register); an import
// writes all its servers or none. Values are kept as written, ${NAME} and all: the connection resolves them.
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents, mcpServers, secrets } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import { referencedNames } from "@/server/secrets/names";
import { folderProblem, locateCommand, serverPathVar } from "./config-command";
import { importedPath, readMcpJson } from "./config-import";
import { literalCredentials } from "./config-literals";
import { parseServerConfig, referenceFields, type McpServerConfig, type McpTransport, type Problem } from "./config";

export type McpServerRow = McpServerConfig & {
  id: string;
  createdBy: string;
  createdAt: Date;
  updatedBy: string;
  updatedAt: Date;
};

type Stored = typeof mcpServers.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function rowOf(row: Stored): McpServerRow {
  const transport: McpTransport =
    row.transport === "stdio"
      ? { type: "stdio", command: row.command!, args: row.args, cwd: row.cwd, env: row.env }
      : row.auth
        ? { type: "http", url: row.url!, headers: row.headers, auth: row.auth }
        : { type: "http", url: row.url!, headers: row.headers };
  const { id, name, description, idleStopS, createdBy, createdAt, updatedBy, updatedAt } = row;
  return { id, name, description, idleStopS, transport, createdBy, createdAt, updatedBy, updatedAt };
}

function columnsOf(config: McpServerConfig) {
  const t = config.transport;
  return {
    name: config.name,
    description: config.description,
    idleStopS: config.idleStopS,
    transport: t.type,
    command: t.type === "stdio" ? t.command : null,
    args: t.type === "stdio" ? t.args : [],
    cwd: t.type === "stdio" ? t.cwd : null,
    env: t.type === "stdio" ? t.env : {},
    url: t.type === "http" ? t.url : null,
    headers: t.type === "http" ? t.headers : {},
    auth: t.type === "http" ? (t.auth ?? null) : null,
  };
}

/** A refusal naming every fault; its sentence leads with the first ("This server cannot be saved until…"). */
export function invalidServer(problems: Problem[], subject = "This server cannot be saved"): DomainError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
  return new DomainError(
    "BAD_REQUEST",
    "INVALID_MCP_SERVER",
    `${subject} until ${problems.length === 1 ? "this is" : "these are"} fixed: ${first.path ? `${first.path}: ` : ""}${first.message}${more}`,
    { problems },
  );
}

const NOT_IMPORTED = "Nothing was imported; the mcp.json cannot be imported";

export function noSuchServer(id: string): DomainError {
  return new DomainError("NOT_FOUND", "NO_SUCH_MCP_SERVER", "There is no such MCP server; it may have been deleted meanwhile.", { id });
}

/** Faults of a config that the database or the machine decide: unknown secrets, a missing program or folder. */
async function studioProblems(db: Db, config: McpServerConfig, known: Set<string>): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const { path, value } of referenceFields(config.transport)) {
    const missing = [...referencedNames(value)].filter((name) => !known.has(name));
    if (missing.length > 0) {
      problems.push({
        path,
        message: `There ${missing.length === 1 ? "is no secret" : "are no secrets"} named ${missing.join(", ")}; pick one that exists, or create it in Settings → Secrets.`,
      });
    }
  }
  const t = config.transport;
  if (t.type === "stdio") {
    const folder = t.cwd === null ? null : folderProblem(t.cwd);
    if (folder) problems.push({ path: "transport.cwd", message: folder });
    const found = locateCommand(t.command, t.cwd, serverPathVar(t.env));
    if ("problem" in found) problems.push({ path: "transport.command", message: found.problem });
  }
  return problems;
}

async function secretNameSet(db: Db): Promise<Set<string>> {
  return new Set((await db.select({ name: secrets.name }).from(secrets)).map((row) => row.name));
}

async function takenNames(db: Db, names: string[], except?: string): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const lower = names.map((name) => name.toLowerCase());
  const rows = await db
    .select({ id: mcpServers.id, name: mcpServers.name })
    .from(mcpServers)
    .where(inArray(sql<string>`lower(${mcpServers.name})`, lower));
  return new Set(rows.filter((row) => row.id !== except).map((row) => row.name.toLowerCase()));
}

const nameTaken = (name: string): Problem => ({ path: "name", message: `An MCP server named ${name} already exists; choose another name.` });

/** The config checked whole, or a refusal naming every fault. */
async function checked(db: Db, input: unknown, except?: string): Promise<McpServerConfig> {
  const { config, problems } = parseServerConfig(input);
  if (!config) throw invalidServer(problems);
  const all = [...literalCredentials(config.transport, config.name), ...(await studioProblems(db, config, await secretNameSet(db)))];
  if ((await takenNames(db, [config.name], except)).size > 0) all.unshift(nameTaken(config.name));
  if (all.length > 0) throw invalidServer(all);
  return config;
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) if ((e as { code?: string }).code === "23505") return true;
  return false;
}

let writes = 0;

/** How many rows this process has changed or deleted: the pool reads a held row again after one (R-mcp-one-connection). */
export function rowWrites(): number {
  return writes;
}

export async function listServers(db: Db): Promise<McpServerRow[]> {
  return (await db.select().from(mcpServers).orderBy(asc(sql`lower(${mcpServers.name})`))).map(rowOf);
}

/** The row, or null when there is none (an id that is not even a uuid included). */
export async function findServer(db: Db, id: string): Promise<McpServerRow | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(mcpServers).where(eq(mcpServers.id, id));
  return row ? rowOf(row) : null;
}

export async function getServer(db: Db, id: string): Promise<McpServerRow> {
  const row = await findServer(db, id);
  if (!row) throw noSuchServer(id);
  return row;
}

export async function createServer(db: Db, actor: string, input: unknown): Promise<McpServerRow> {
  const config = await checked(db, input);
  const [row] = await db
    .insert(mcpServers)
    .values({ ...columnsOf(config), createdBy: actor, updatedBy: actor })
    .returning()
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw invalidServer([nameTaken(config.name)]);
      throw err;
    });
  await recordAudit(db, { actor, action: "mcp_server.created", target: config.name, detail: { id: row!.id, transport: config.transport.type } });
  return rowOf(row!);
}

export async function updateServer(db: Db, actor: string, id: string, input: unknown): Promise<McpServerRow> {
  await getServer(db, id);
  const config = await checked(db, input, id);
  const [row] = await db
    .update(mcpServers)
    .set({ ...columnsOf(config), updatedBy: actor, updatedAt: new Date() })
    .where(eq(mcpServers.id, id))
    .returning()
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw invalidServer([nameTaken(config.name)]);
      throw err;
    });
  writes += 1;
  if (!row) throw noSuchServer(id);
  await recordAudit(db, { actor, action: "mcp_server.updated", target: config.name, detail: { id } });
  return rowOf(row);
}

/** The agents whose entries name the server (its uuid appears only where an entry names it). */
export async function agentsUsing(db: Db, id: string): Promise<Array<{ id: string; name: string }>> {
  if (!UUID.test(id)) return [];
  return db
    .select({ id: agents.id, name: agents.name })
    .from(agents)
    .where(sql`(${agents.declaration} -> 'tools')::text like ${`%${id.toLowerCase()}%`}`)
    .orderBy(asc(agents.name));
}

/** Deletes a server no agent uses; while one does, refuses and names them. */
export async function deleteServer(db: Db, actor: string, id: string): Promise<{ id: string }> {
  const row = await getServer(db, id);
  const users = await agentsUsing(db, id);
  if (users.length > 0) {
    const shown = users.slice(0, 3).map((agent) => `“${agent.name}”`);
    const more = users.length > 3 ? ` and ${users.length - 3} more` : "";
    throw new DomainError(
      "CONFLICT",
      "MCP_SERVER_IN_USE",
      `${row.name} is still used by the agent${users.length === 1 ? "" : "s"} ${shown.join(", ")}${more}; remove it from ${users.length === 1 ? "that agent" : "them"} first, then delete it.`,
      { id, agents: users },
    );
  }
  await db.delete(mcpServers).where(eq(mcpServers.id, id));
  writes += 1;
  await recordAudit(db, { actor, action: "mcp_server.deleted", target: row.name, detail: { id } });
  return { id };
}

/**
 * Every server an mcp.json names, all written in one transaction, or none: every entry is checked first (its
 * shape, credentials written out, secrets, programs, names against each other and the registry).
 */
export async function importMcpJson(db: Db, actor: string, text: string): Promise<McpServerRow[]> {
  const read = readMcpJson(text);
  const problems = [...read.problems];
  const known = await secretNameSet(db);
  const configs: Array<{ key: string; config: McpServerConfig }> = [];
  const seen = new Set<string>();
  for (const { key, input } of read.servers) {
    const parsed = parseServerConfig(input);
    const at = (problem: Problem) => ({ path: importedPath(key, problem.path), message: problem.message });
    if (!parsed.config) {
      problems.push(...parsed.problems.map(at));
      continue;
    }
    const config = parsed.config;
    problems.push(...[...literalCredentials(config.transport, config.name), ...(await studioProblems(db, config, known))].map(at));
    if (seen.has(config.name.toLowerCase())) problems.push({ path: importedPath(key, "name"), message: `The file names ${config.name} twice (case aside); give each server its own name.` });
    seen.add(config.name.toLowerCase());
    configs.push({ key, config });
  }
  const taken = await takenNames(db, configs.map(({ config }) => config.name));
  for (const { key, config } of configs) if (taken.has(config.name.toLowerCase())) problems.push({ ...nameTaken(config.name), path: importedPath(key, "name") });
  if (problems.length > 0) throw invalidServer(problems, NOT_IMPORTED);
  const values = configs.map(({ config }) => ({ ...columnsOf(config), createdBy: actor, updatedBy: actor }));
  const rows = await db
    .transaction((tx) => tx.insert(mcpServers).values(values).returning())
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw invalidServer([{ path: "mcpServers", message: "Another admin registered one of these names meanwhile; import again to see which." }], NOT_IMPORTED);
      throw err;
    });
  await recordAudit(db, { actor, action: "mcp_server.imported", target: rows.map((row) => row.name).join(", "), detail: { ids: rows.map((row) => row.id) } });
  return rows.map(rowOf);
}
