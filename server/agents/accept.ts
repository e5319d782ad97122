// A builder accepts what an MCP server's tools say now (R-mcp-pin-withheld): the entry's pins are taken afresh and
// saved as a new version, after which the next run offers the tools again. The agent page shows the old and new
// text side by side before calling this.
import type { Db } from "@/db/client";
import { listSources } from "@/server/catalog/sources";
import { DomainError } from "@/server/errors";
import { mcpServersIn, resolveEntry } from "./entries";
import { toolChanges, type ToolChange } from "./pin-texts";
import { currentPins } from "./pins";
import { getAgent, mcpListing, saveAgent, type AgentDetail, type Place } from "./store";

export type Acceptance = {
  id: string;
  /** The version the builder looked at: a save since is refused, as any stale save is. */
  baseVersion: number;
  /** The entry's index in the agent's tools. */
  entry: number;
  /** The server's tool names to accept; every tool of the entry when absent. */
  tools?: string[];
};

export async function acceptToolChange(db: Db, actor: string, input: Acceptance, place: Place): Promise<AgentDetail> {
  const agent = await getAgent(db, input.id, place);
  const tool = agent.declaration.tools[input.entry];
  const server = tool?.entry.split("#")[0]!.trim().toLowerCase();
  if (!tool || !server) {
    throw new DomainError("BAD_REQUEST", "NO_SUCH_ENTRY", `This agent has no entry tools[${input.entry}]; reload the agent page and try again.`, { entry: input.entry });
  }
  const { sources } = await listSources(place.tree, mcpListing(db, place, [server]));
  const resolved = resolveEntry(tool.entry, sources);
  if (!resolved.ok || resolved.source.kind !== "mcp") {
    const why = resolved.ok ? `${tool.entry} is not an MCP server's entry` : resolved.problems[0];
    throw new DomainError("BAD_REQUEST", "CANNOT_ACCEPT", `There is nothing to accept: ${why}`, { entry: input.entry });
  }
  const now = currentPins(resolved);
  const wanted = input.tools ?? Object.keys(now);
  const unknown = wanted.filter((name) => !(name in now));
  if (unknown.length > 0) {
    throw new DomainError("BAD_REQUEST", "CANNOT_ACCEPT", `${resolved.source.title} offers no tool ${unknown.join(", ")} in this entry now, so it cannot be accepted.`, { unknown });
  }
  const pins = { ...tool.pins, ...Object.fromEntries(wanted.map((name) => [name, now[name]!])) };
  const tools = agent.declaration.tools.map((t, index) => (index === input.entry ? { ...t, pins } : t));
  const summary = `Accepted the current version of ${wanted.join(", ")} from ${resolved.source.title}`;
  return saveAgent(db, actor, { id: input.id, baseVersion: input.baseVersion, declaration: { ...agent.declaration, tools } }, place, { summary: summary.length > 300 ? `${summary.slice(0, 299)}…` : summary });
}

/** What the agent page shows before a builder accepts: each changed tool of the entry, old text beside new. */
export async function agentToolChanges(db: Db, input: { id: string; entry: number }, place: Place): Promise<ToolChange[]> {
  const agent = await getAgent(db, input.id, place);
  const tool = agent.declaration.tools[input.entry];
  if (!tool) throw new DomainError("BAD_REQUEST", "NO_SUCH_ENTRY", `This agent has no entry tools[${input.entry}]; reload the agent page and try again.`, { entry: input.entry });
  const { sources } = await listSources(place.tree, mcpListing(db, place, mcpServersIn([tool.entry])));
  return toolChanges(db, tool, sources);
}

