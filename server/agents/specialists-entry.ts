// An entry that names another agent as a specialist (R-spec-entry): `agent:<id>`, or `agent:<its name>` as a person
// may write it in text mode or an imported file, saved as the id. Finding its source and refusing an unknown one,
// naming the closest agents. Pure, so the builder's page may import it.
import type { Source } from "@/server/catalog/source";
import { closest } from "./closest";

export const AGENT_PREFIX = "agent:";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "agent:<id>" (lower case) or "agent:<name>" as written; null when the reference is empty. */
export function agentReference(source: string): string | null {
  const reference = source.slice(AGENT_PREFIX.length).trim();
  if (reference === "") return null;
  return AGENT_PREFIX + (UUID.test(reference) ? reference.toLowerCase() : reference);
}

/** The agent's id an `agent:<id>` source names, or null for a name or anything else. */
export function agentIdOf(source: string): string | null {
  if (!source.startsWith(AGENT_PREFIX)) return null;
  const reference = source.slice(AGENT_PREFIX.length);
  return UUID.test(reference) ? reference.toLowerCase() : null;
}

/** The ids of the agents these entries name by id (each once), whatever else is wrong with them. */
export function agentsIn(entries: readonly unknown[]): string[] {
  const ids = entries.flatMap((text) => {
    const id = typeof text === "string" ? agentIdOf(text.split("#")[0]!.trim()) : null;
    return id ? [id] : [];
  });
  return [...new Set(ids)];
}

/** The agent an entry's source names: by its id, or by its name whatever the case. */
export function findAgentSource(source: string, sources: readonly Source[]): Source | undefined {
  const agents = sources.filter((s) => s.kind === "agent");
  const byId = agents.find((s) => s.entry === source);
  if (byId) return byId;
  const name = source.slice(AGENT_PREFIX.length).trim().toLowerCase();
  return agents.find((s) => s.title.toLowerCase() === name);
}

/** An agent reference no agent answers to, with the agents that come closest by id or name (or some, when none is close). */
export function noSuchAgent(source: string, sources: readonly Source[]): string {
  const agents = sources.filter((s) => s.kind === "agent");
  const reference = source.slice(AGENT_PREFIX.length).trim();
  const byId = agentIdOf(source) !== null;
  const key = (s: Source) => (byId ? s.entry.slice(AGENT_PREFIX.length) : s.title);
  const near = closest(reference, agents.map(key)).map((k) => agents.find((s) => key(s) === k)!);
  const listed = (near.length > 0 ? near : agents.slice(0, 3)).map((s) => `${s.title} (${s.entry})`);
  const what = byId ? `There is no agent ${reference}; it may have been deleted, or the id is mistyped.` : `There is no agent named “${reference}”.`;
  if (listed.length === 0) return `${what} This studio has no other agent yet; make the specialist first, then add it here.`;
  const lead = near.length > 0 ? `The closest ${listed.length === 1 ? "is" : "are"}` : "Agents here include";
  return `${what} ${lead} ${listed.join(", ")}; name one as agent:<id> or agent:<its name>.`;
}
