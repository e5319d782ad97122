// A run's beginning, in whichever process takes its job first (R-queue-start): what it starts with, the agent's
// sources read once, and its first events, which keep both for any process that takes the run over later. Edit when
// what a run starts from changes.
import { existsSync } from "node:fs";
import type { Db } from "@/db/client";
import type { AgentDeclaration, Provider } from "@/server/agents/declaration";
import { agentsIn } from "@/server/agents/specialists-entry";
import { DomainError } from "@/server/errors";
import type { McpPool } from "@/server/mcp/pool";
import { providerOf, resolveModel } from "@/server/models/resolve";
import { mcpServersOf, readSources, runCatalog, type RunCatalog } from "./catalog";
import { openClientCall } from "./client-call";
import { prepareRoots } from "./context";
import type { Run } from "./run";
import type { ClientCall, Person } from "./shapes";

export type Who = { id: string; name?: string | null };

/** One turn of a conversation a client sent whole, before the message a new run answers. */
export type PriorTurn = { role: "user" | "assistant"; text: string };

export const person = (who: Who): Person => ({ id: who.id, name: who.name ?? null });

/** What a run's job carries before any process has begun it: what it starts with (R-queue-start). */
export type StartInput =
  | { kind: "message"; message: string; user: Who; prior?: PriorTurn[]; system?: string | null }
  | { kind: "call"; call: ClientCall; user: Who };

/** Where a run's sources are read from. */
export type Sources = { db: Db; tree: string; mcp: McpPool };

/**
 * The agent's sources read now: only the MCP servers it names, one that is down offering nothing (R-mcp-down-at-start),
 * shaped for the model's provider (a connection's, read now, R-conn-resolve, unless given).
 */
export async function catalogFor(where: Sources, declaration: AgentDeclaration, provider?: Provider): Promise<RunCatalog> {
  const on = provider ?? (await providerOf(where.db, declaration.model)) ?? undefined;
  const only = mcpServersOf(declaration);
  const mcp = only.length > 0 ? { db: where.db, pool: where.mcp, only, provider: on } : undefined;
  // The studio's agents are read only for an agent that asks some of them (R-spec-entry).
  const agents = agentsIn(declaration.tools.map((tool) => tool.entry)).length > 0 ? where.db : undefined;
  const { sources, extras, treeError } = await readSources(where.tree, mcp, agents);
  return runCatalog(declaration, sources, extras, treeError, on);
}

/**
 * A run on the working tree in a process that has no tree folder (a worker on another machine, before anything was
 * published) is refused with why, rather than offered none of the agent's tree tools (R-version-none).
 */
function refuseWithoutTree(tree: string, declaration: AgentDeclaration): void {
  if (existsSync(tree) || !declaration.tools.some((tool) => tool.entry.startsWith("tools/"))) return;
  throw new DomainError(
    "PRECONDITION_FAILED",
    "NO_TREE_HERE",
    `nothing has been published yet, and this studio process has no tool tree at ${tree}: publish the tree from the Tools page, then start the run again.`,
  );
}

/** The run's catalog, read once per run, here; then its first events, which keep it and its start for a takeover. */
export async function begin(where: Sources, run: Run, start: StartInput): Promise<void> {
  const { declaration, agent } = run;
  if (start.kind === "message") run.clientSystem = start.system?.trim() || null;
  else run.clientCall = start.call;
  prepareRoots(run);
  refuseWithoutTree(where.tree, declaration);
  // A connection that is gone (or gives no model) is why the run could not start, in its sentence.
  const model = (run.model = await resolveModel(where.db, declaration.model));
  run.catalog = await catalogFor(where, declaration, model.provider);
  void run.emit("run_started", {
    agent,
    model: { provider: model.provider, model: model.model, ...(model.connection ? { connection: model.connection } : {}) },
    tools: run.catalog.tools,
    operations: run.catalog.operations,
    withheld: run.catalog.withheld,
    problems: run.catalog.problems,
    planning: run.planning,
    ...(run.clientSystem ? { system: run.clientSystem } : {}),
    ...(run.clientCall ? { clientCall: run.clientCall } : {}),
  });
  if (start.kind === "call") {
    openClientCall(run, start.call);
    return;
  }
  for (const turn of start.prior ?? []) {
    if (turn.role === "user") void run.emit("message", { role: "user", text: turn.text, by: person(start.user), prior: true });
    else void run.emit("message", { role: "assistant", text: turn.text, calls: [], usage: { input: 0, output: 0 }, modelMs: 0, prior: true });
    run.transcript.push(turn.role === "user" ? { kind: "user", text: turn.text } : { kind: "assistant", text: turn.text, calls: [] });
  }
  void run.emit("message", { role: "user", text: start.message, by: person(start.user) });
  run.transcript.push({ kind: "user", text: start.message });
}
