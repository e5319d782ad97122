// The agents a key may use, as the OpenAI-compatible endpoint names them: an agent's id or its name (unique, case
// aside) is the request's `model`, and GET /api/v1/models lists them (R-api-chat-model). Edit when an agent can be
// named another way.
import { asc, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents } from "@/db/schema";
import { editDistance } from "@/server/agents/closest";
import { DomainError } from "@/server/errors";
import { mayUseAgent, type ApiKeyPrincipal } from "@/server/keys/request";

export type KeyAgent = { id: string; name: string; createdAt: Date };

/** Every agent the key may use, by name. */
export async function agentsOfKey(db: Db, key: ApiKeyPrincipal): Promise<KeyAgent[]> {
  const rows = await db.select({ id: agents.id, name: agents.name, createdAt: agents.createdAt }).from(agents).orderBy(asc(sql`lower(${agents.name})`));
  return rows.filter((row) => mayUseAgent(key, row.id));
}

/** How many names an unknown model's sentence lists before it says how many more there are. */
const LISTED = 10;

/** The names nearest to `model` first, so a misspelt name finds itself at the front. */
function byNearness(model: string, names: string[]): string[] {
  return names
    .map((name) => ({ name, distance: editDistance(model, name) }))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .map((entry) => entry.name);
}

/**
 * The agent `model` names among those the key may use. An agent the key may not use reads as unknown, so a key
 * learns nothing of the agents kept from it; the sentence lists those it may use, the nearest first.
 */
export async function agentForModel(db: Db, key: ApiKeyPrincipal, model: string): Promise<KeyAgent> {
  const mine = await agentsOfKey(db, key);
  const found = mine.find((a) => a.id === model) ?? mine.find((a) => a.name.toLowerCase() === model.toLowerCase());
  if (found) return found;
  if (mine.length === 0) {
    throw new DomainError("NOT_FOUND", "MODEL_NOT_FOUND", `There is no agent “${model}” for this key: the key “${key.name}” may use no agent yet; ask an admin to give it one.`);
  }
  const names = byNearness(model, mine.map((a) => a.name));
  const shown = names.slice(0, LISTED).map((n) => `“${n}”`).join(", ");
  const more = names.length > LISTED ? ` and ${names.length - LISTED} more (GET /api/v1/models lists them all)` : "";
  throw new DomainError(
    "NOT_FOUND",
    "MODEL_NOT_FOUND",
    `There is no agent “${model}” that the key “${key.name}” may use; send one of its agents' names or ids as model: ${shown}${more}.`,
  );
}
