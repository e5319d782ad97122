// Agents in the database: list, read (with drift), create, save (every save a version, a stale one refused),
// duplicate and delete. Every write is validated against the studio as it is (validate.ts), and every problem is
// named. Export and import sit in transfer.ts.
import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents, agentVersions, runs, user } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import type { McpListing } from "@/server/catalog/mcp";
import { listSources, type Source } from "@/server/catalog/sources";
import { mcpPool, type McpPool } from "@/server/mcp/pool";
import { DomainError } from "@/server/errors";
import { secretNames } from "@/server/secrets/store";
import { connectionFacts, modelSummary, type ConnectionFacts } from "./connections";
import { parseDeclaration, type AgentDeclaration, type Problem } from "./declaration";
import { summarizeChange } from "./diff";
import { mcpServersIn, resolveEntry } from "./entries";
import { keepPinnedTexts } from "./pin-texts";
import { pinsToSave, unacceptedTools } from "./pins";
import { detectDrift, fingerprint, stableJson, type EntryDrift, type EntryPrint } from "./drift";
import { specialistLoops, withSpecialists } from "./specialists";
import { validateDeclaration, type ValidationContext } from "./validate";

/** Where an agent's sources live: the tool tree, the workspace its roots are confined to, the MCP servers' connections. */
export type Place = { tree: string; workspace: string; /** The studio process's own pool unless given. */ mcp?: McpPool };

export type AgentSummary = {
  id: string;
  name: string;
  description: string;
  /** The provider and model id; on a connection (R-conn-reference), its name, its provider and the model it gives. */
  model: { provider: string; model: string; connection: string | null };
  /** The entry strings, in order: what the agent can use. */
  entries: string[];
  version: number;
  updatedAt: Date;
  updatedBy: string;
  updatedByName: string | null;
  /** When the agent last started a run, or null when it never ran. */
  lastRunAt: Date | null;
};

export type AgentDetail = AgentSummary & {
  declaration: AgentDeclaration;
  createdAt: Date;
  createdBy: string;
  /** Per entry, what changed in its source since the last save. */
  drift: EntryDrift[];
  /** Per MCP entry, the tools withheld from runs until a builder accepts them (R-mcp-pin-withheld); a save does not. */
  unaccepted: Array<{ index: number; tools: string[] }>;
  treeError: string | null;
};

export type VersionInfo = {
  version: number;
  summary: string;
  savedBy: string;
  savedByName: string | null;
  savedAt: Date;
  declaration: AgentDeclaration;
};

/** The MCP servers as the agent pages read them: every registered one, or only those `only` names (none: no listing). */
export function mcpListing(db: Db, place: Place, only?: readonly string[]): McpListing | undefined {
  if (only?.length === 0) return undefined;
  return { db, pool: place.mcp ?? mcpPool(), only };
}

/** The MCP servers' ids an input's entries name, whatever else is wrong with it. */
function namedServers(input: unknown): string[] {
  const tools = (input as { tools?: unknown } | null)?.tools;
  return Array.isArray(tools) ? mcpServersIn(tools.map((tool) => (tool as { entry?: unknown } | null)?.entry)) : [];
}

/** What validation needs to know of the studio now: its sources (the other agents among them), its secrets' names, its workspace. */
export async function validationContext(db: Db, place: Place, mcpServers: readonly string[] = []): Promise<ValidationContext> {
  const listed = listSources(place.tree, mcpListing(db, place, mcpServers)).then((list) => withSpecialists(db, list));
  const [{ sources, treeError }, names, connections] = await Promise.all([listed, secretNames(db), connectionFacts(db)]);
  return { sources, treeError, secretNames: new Set(names.map((s) => s.name)), workspace: place.workspace, connections };
}

export function invalid(problems: Problem[], what = "saved"): DomainError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
  return new DomainError(
    "BAD_REQUEST",
    "INVALID_AGENT",
    `This agent cannot be ${what} until ${problems.length === 1 ? "this is" : "these are"} fixed: ${first.path ? `${first.path}: ` : ""}${first.message}${more}`,
    { problems },
  );
}

function noSuchAgent(id: string): DomainError {
  return new DomainError("NOT_FOUND", "NO_SUCH_AGENT", "There is no such agent; it may have been deleted meanwhile.", { id });
}

/**
 * A declaration read back from the database (an agent, a version, a run's copy): it passed validation when saved,
 * so reading it back only restores its type; one that no longer parses is a bug, and says so.
 */
export function declarationOf(value: unknown): AgentDeclaration {
  const parsed = parseDeclaration(value);
  if (!parsed.declaration) throw new Error(`A stored agent declaration no longer parses: ${parsed.problems.map((p) => p.message).join(" ")}`);
  return parsed.declaration;
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}

async function nameTaken(db: Db, name: string, except?: string): Promise<boolean> {
  const same = sql`lower(${agents.name}) = lower(${name})`;
  const rows = await db
    .select({ id: agents.id })
    .from(agents)
    .where(except ? and(same, ne(agents.id, except)) : same);
  return rows.length > 0;
}

function nameProblem(name: string): Problem {
  return { path: "name", message: `An agent named ${name} already exists; choose another name.` };
}

/** `base`, or `base 2`, `base 3`…: the first name no agent has. */
export async function freeName(db: Db, base: string): Promise<string> {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "" : ` ${n}`;
    const name = base.slice(0, 80 - suffix.length).trimEnd() + suffix;
    if (!(await nameTaken(db, name))) return name;
  }
}

/**
 * Each MCP entry with its tools' pins (R-mcp-pin-withheld): a pin the input or the previous version holds for the
 * same server stays, since a save is not an acceptance; a tool the entry did not offer before is pinned as it is now.
 */
function withPins(declaration: AgentDeclaration, sources: readonly Source[], previous?: AgentDeclaration): AgentDeclaration {
  const kept = new Map<string, Record<string, string>>();
  for (const tool of previous?.tools ?? []) if (tool.pins) kept.set(tool.entry.split("#")[0]!, tool.pins);
  return {
    ...declaration,
    tools: declaration.tools.map((tool) => {
      const resolved = resolveEntry(tool.entry, sources);
      if (!resolved.ok || resolved.source.kind !== "mcp") return tool;
      return { ...tool, pins: pinsToSave(resolved, { ...kept.get(resolved.source.entry), ...tool.pins }) };
    }),
  };
}

/** The declaration checked and canonical, with its fingerprints; or a refusal naming every problem. */
export async function checked(db: Db, input: unknown, place: Place, options: { except?: string; what?: string; previous?: AgentDeclaration } = {}) {
  const context = await validationContext(db, place, namedServers(input));
  const validation = validateDeclaration(input, context);
  const problems = [...validation.problems];
  if (validation.declaration && (await nameTaken(db, validation.declaration.name, options.except))) problems.push(nameProblem(validation.declaration.name));
  if (validation.declaration) problems.push(...(await specialistLoops(db, validation.declaration, options.except)));
  if (problems.length > 0 || !validation.declaration) throw invalid(problems, options.what);
  const declaration = withPins(validation.declaration, context.sources, options.previous);
  const fingerprints: EntryPrint[] = declaration.tools.map((tool, i) => ({ entry: tool.entry, operations: fingerprint(validation.operations[i] ?? []) }));
  return { declaration, fingerprints, context };
}

const summaryColumns = {
  id: agents.id,
  name: agents.name,
  declaration: agents.declaration,
  version: agents.version,
  updatedAt: agents.updatedAt,
  updatedBy: agents.updatedBy,
  updatedByName: user.name,
  lastRunAt: sql<Date | null>`(select max(${runs.startedAt}) from ${runs} where ${runs.agentId} = ${agents.id})`.mapWith(runs.startedAt),
};

function summaryOf(row: Omit<AgentSummary, "description" | "model" | "entries">, declaration: AgentDeclaration, connections: ReadonlyMap<string, ConnectionFacts>): AgentSummary {
  return {
    id: row.id,
    name: row.name,
    description: declaration.description,
    model: modelSummary(declaration.model, connections),
    entries: declaration.tools.map((t) => t.entry),
    version: row.version,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
    updatedByName: row.updatedByName,
    lastRunAt: row.lastRunAt,
  };
}

export async function listAgents(db: Db): Promise<AgentSummary[]> {
  const [rows, connections] = await Promise.all([
    db.select(summaryColumns).from(agents).leftJoin(user, eq(user.id, agents.updatedBy)).orderBy(asc(sql`lower(${agents.name})`)),
    connectionFacts(db),
  ]);
  return rows.map((row) => summaryOf(row, declarationOf(row.declaration), connections));
}

export async function getAgent(db: Db, id: string, place: Place): Promise<AgentDetail> {
  const [row] = await db
    .select({ ...summaryColumns, fingerprints: agents.fingerprints, createdAt: agents.createdAt, createdBy: agents.createdBy })
    .from(agents)
    .leftJoin(user, eq(user.id, agents.updatedBy))
    .where(eq(agents.id, id));
  if (!row) throw noSuchAgent(id);
  const declaration = declarationOf(row.declaration);
  const { sources, treeError } = await withSpecialists(db, await listSources(place.tree, mcpListing(db, place, namedServers(declaration))));
  const drift = detectDrift(declaration, row.fingerprints as EntryPrint[], sources, treeError);
  const unaccepted = unacceptedTools(declaration, sources);
  return { ...summaryOf(row, declaration, await connectionFacts(db)), declaration, createdAt: row.createdAt, createdBy: row.createdBy, drift, unaccepted, treeError };
}

/** Inserts an already-checked declaration as a new agent at version 1. */
export async function createAgentChecked(db: Db, actor: string, declaration: AgentDeclaration, fingerprints: EntryPrint[], summary: string): Promise<string> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(agents)
        .values({ name: declaration.name, declaration, fingerprints, version: 1, createdBy: actor, updatedBy: actor })
        .returning({ id: agents.id });
      await tx.insert(agentVersions).values({ agentId: row!.id, version: 1, declaration, fingerprints, summary, savedBy: actor });
      return row!.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw invalid([nameProblem(declaration.name)]);
    throw err;
  }
}

/** A new agent from a declaration; refused, with every problem named, unless it validates. */
export async function createAgent(db: Db, actor: string, input: unknown, place: Place, summary = "Created"): Promise<AgentDetail> {
  const { declaration, fingerprints, context } = await checked(db, input, place, { what: "created" });
  const id = await createAgentChecked(db, actor, declaration, fingerprints, summary);
  await keepPinnedTexts(db, declaration, context.sources);
  await recordAudit(db, { actor, action: "agent.created", target: declaration.name, detail: { id } });
  return getAgent(db, id, place);
}

async function latest(db: Db, id: string) {
  const [row] = await db
    .select({ version: agentVersions.version, declaration: agentVersions.declaration, savedBy: agentVersions.savedBy, savedByName: user.name, savedAt: agentVersions.savedAt })
    .from(agentVersions)
    .leftJoin(user, eq(user.id, agentVersions.savedBy))
    .where(eq(agentVersions.agentId, id))
    .orderBy(desc(agentVersions.version))
    .limit(1);
  return row;
}

function stale(current: NonNullable<Awaited<ReturnType<typeof latest>>>): DomainError {
  const who = current.savedByName ?? "someone";
  return new DomainError(
    "CONFLICT",
    "STALE_VERSION",
    `${who} saved this agent (version ${current.version}) since you opened it; review their version, then make your changes on top of it and save again.`,
    { current: { ...current, declaration: declarationOf(current.declaration) } },
  );
}

export type SaveInput = { id: string; baseVersion: number; declaration: unknown };

/**
 * A new version of the agent, based on `baseVersion`: refused (CONFLICT, with the current declaration) when that
 * is not the latest, so two tabs never silently overwrite each other. Saving what is already there makes no
 * version, unless the sources moved on: then the save accepts their changes and clears the drift.
 */
export async function saveAgent(db: Db, actor: string, input: SaveInput, place: Place, options: { summary?: string } = {}): Promise<AgentDetail> {
  const [row] = await db.select({ version: agents.version, declaration: agents.declaration, fingerprints: agents.fingerprints }).from(agents).where(eq(agents.id, input.id));
  if (!row) throw noSuchAgent(input.id);
  if (row.version !== input.baseVersion) throw stale((await latest(db, input.id))!);
  const before = declarationOf(row.declaration);
  const { declaration, fingerprints, context } = await checked(db, input.declaration, place, { except: input.id, previous: before });
  await keepPinnedTexts(db, declaration, context.sources);
  const sameDeclaration = stableJson(before) === stableJson(declaration);
  if (sameDeclaration && stableJson(row.fingerprints) === stableJson(fingerprints)) return getAgent(db, input.id, place);
  const summary = options.summary ?? (sameDeclaration ? "Accepted changes in its sources" : summarizeChange(before, declaration));
  const version = input.baseVersion + 1;
  const saved = await db
    .transaction(async (tx) => {
      const updated = await tx
        .update(agents)
        .set({ name: declaration.name, declaration, fingerprints, version, updatedBy: actor, updatedAt: new Date() })
        .where(and(eq(agents.id, input.id), eq(agents.version, input.baseVersion)))
        .returning({ id: agents.id });
      if (updated.length === 0) return false;
      await tx.insert(agentVersions).values({ agentId: input.id, version, declaration, fingerprints, summary, savedBy: actor });
      return true;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw invalid([nameProblem(declaration.name)]);
      throw err;
    });
  // Another save won the race between the check above and this one.
  if (!saved) throw stale((await latest(db, input.id))!);
  await recordAudit(db, { actor, action: "agent.saved", target: declaration.name, detail: { id: input.id, version, summary } });
  return getAgent(db, input.id, place);
}

/** A copy under a free name ("triage copy"), as it stands; it starts its own history. */
export async function duplicateAgent(db: Db, actor: string, id: string, place: Place): Promise<AgentDetail> {
  const [row] = await db.select({ name: agents.name, declaration: agents.declaration, fingerprints: agents.fingerprints }).from(agents).where(eq(agents.id, id));
  if (!row) throw noSuchAgent(id);
  const declaration = { ...declarationOf(row.declaration), name: await freeName(db, `${row.name} copy`) };
  const copy = await createAgentChecked(db, actor, declaration, row.fingerprints as EntryPrint[], `Duplicated from ${row.name}`);
  await recordAudit(db, { actor, action: "agent.duplicated", target: declaration.name, detail: { id: copy, from: id } });
  return getAgent(db, copy, place);
}

/** Deletes the agent and its versions (the page confirms first, naming them). */
export async function deleteAgent(db: Db, actor: string, id: string): Promise<{ id: string; name: string }> {
  const [row] = await db.delete(agents).where(eq(agents.id, id)).returning({ id: agents.id, name: agents.name });
  if (!row) throw noSuchAgent(id);
  await recordAudit(db, { actor, action: "agent.deleted", target: row.name, detail: { id } });
  return row;
}

/** Every version, newest first, with who saved it and what changed. */
export async function agentHistory(db: Db, id: string): Promise<VersionInfo[]> {
  const rows = await db
    .select({ version: agentVersions.version, summary: agentVersions.summary, savedBy: agentVersions.savedBy, savedByName: user.name, savedAt: agentVersions.savedAt, declaration: agentVersions.declaration })
    .from(agentVersions)
    .leftJoin(user, eq(user.id, agentVersions.savedBy))
    .where(eq(agentVersions.agentId, id))
    .orderBy(desc(agentVersions.version));
  if (rows.length === 0) throw noSuchAgent(id);
  return rows.map((row) => ({ ...row, declaration: declarationOf(row.declaration) }));
}
