// Other agents as sources (R-spec-entry): each agent of the studio is a source `agent:<id>` offering one operation,
// `ask_<agent slug>` (the shape ask-tool.ts gives every way an agent is asked), bounded by the specialist's 300 s
// (R-spec-timeout); and the loops of specialists a save would make, refused by name (R-spec-cycle). Edit when what an
// agent offers as a specialist changes.
import { asc, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents } from "@/db/schema";
import type { Source } from "@/server/catalog/sources";
import { highestRisk, type Operation, type Risk } from "@/server/operations/operation";
import { ASK_TOOL_SCHEMA, askToolDescription, askToolName } from "./ask-tool";
import { parseDeclaration, type AgentDeclaration, type Problem } from "./declaration";
import { resolveEntry } from "./entries";
import { AGENT_PREFIX, agentIdOf } from "./specialists-entry";
import { findLoop, loopWords } from "./specialists-loop";

/** The specialists' row of the timeout table: a task's bound when the builder sets none lower (R-spec-timeout). */
export const SPECIALIST_TIMEOUT_S = 300;

type AgentRow = { id: string; name: string; declaration: AgentDeclaration | null };

/** The riskiest operation the specialist's own entries give it, as far as these sources say. */
function riskOf(declaration: AgentDeclaration | null, sources: readonly Source[]): Risk {
  const risks = (declaration?.tools ?? []).flatMap((tool) => {
    const resolved = tool.entry.startsWith(AGENT_PREFIX) ? null : resolveEntry(tool.entry, sources);
    return resolved?.ok ? resolved.operations.map((op) => op.risk) : [];
  });
  return highestRisk(risks);
}

/** The one operation an agent offers as a specialist: a message in, its reply out. */
export function askOperation(name: string, risk: Risk): Operation {
  return {
    name: askToolName(name),
    title: `Ask ${name}`,
    description: askToolDescription(name),
    input_schema: structuredClone(ASK_TOOL_SCHEMA),
    risk,
    read_only: false,
    destructive: false,
    // Specialists asked in one turn work side by side; their own serial calls take turns (R-spec-serial).
    concurrent: true,
    timeout: SPECIALIST_TIMEOUT_S,
    // What a specialist did cannot be known from outside its run, so an interrupted task is never asked again unasked.
    replay: "manual",
    capabilities: [],
  };
}

export function agentSource(row: AgentRow, risk: Risk): Source {
  const operation = askOperation(row.name, risk);
  const description = row.declaration?.description.trim();
  return {
    entry: `${AGENT_PREFIX}${row.id}`,
    kind: "agent",
    title: row.name,
    description: description || `The agent “${row.name}”, asked to do a task in a run of its own.`,
    risk,
    capabilities: [],
    operations: [operation],
    settings_schema: null,
    offered: true,
    errors: [],
    unavailable: null,
    warnings: [],
  };
}

async function agentRows(db: Db): Promise<AgentRow[]> {
  const rows = await db.select({ id: agents.id, name: agents.name, declaration: agents.declaration }).from(agents).orderBy(asc(sql`lower(${agents.name})`));
  return rows.map((row) => ({ id: row.id, name: row.name, declaration: parseDeclaration(row.declaration).declaration }));
}

/** Every agent as a source, its risk read from `others` (the studio's other sources). */
export async function agentSources(db: Db, others: readonly Source[]): Promise<Source[]> {
  return (await agentRows(db)).map((row) => agentSource(row, riskOf(row.declaration, others)));
}

/** A source list with the studio's agents added after its other sources. */
export async function withSpecialists<T extends { sources: Source[] }>(db: Db, list: T): Promise<T> {
  return { ...list, sources: [...list.sources, ...(await agentSources(db, list.sources))] };
}

/** The agents a declaration's entries name by id, in entry order with the index of each. */
function specialistsOf(declaration: AgentDeclaration): Array<{ id: string; index: number }> {
  return declaration.tools.flatMap((tool, index) => {
    const id = agentIdOf(tool.entry.split("#")[0]!.trim());
    return id ? [{ id, index }] : [];
  });
}

/**
 * The loop of specialists saving `declaration` as agent `selfId` would make (R-spec-cycle), as a problem at the entry
 * that starts it: "triage → research → triage". A new agent (no id yet) is named by no one, so it closes no loop.
 */
export async function specialistLoops(db: Db, declaration: AgentDeclaration, selfId: string | undefined): Promise<Problem[]> {
  const named = specialistsOf(declaration);
  if (!selfId || named.length === 0) return [];
  const rows = await agentRows(db);
  const names = new Map(rows.map((row) => [row.id, row.name]));
  names.set(selfId, declaration.name);
  const edges = new Map(rows.map((row) => [row.id, row.declaration ? specialistsOf(row.declaration).map((s) => s.id) : []]));
  edges.set(selfId, named.map((s) => s.id));
  const loop = findLoop(selfId, edges);
  if (!loop) return [];
  const index = named.find((s) => s.id === loop[1])!.index;
  return [{ path: `tools[${index}].entry`, message: loopWords(loop.map((id) => names.get(id) ?? id)) }];
}
