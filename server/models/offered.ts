// The models builders may pick on a connection (R-conn-offered): the connection's own list when an admin gave one,
// else what the provider lists, kept a minute per connection so a picker opened often does not ask each time. When
// the list cannot be read, a sentence says why and the picker lets a model be typed.
import type { Db } from "@/db/client";
import { connectionKey } from "./key";
import { listModels } from "./list";
import { getConnection } from "./store";

export type Offered = { models: string[]; listed: boolean; sentence: string | null };

export const OFFERED_TTL_MS = 60_000;

/** By connection: what its provider listed, for the connection as it was then (its updatedAt). */
const cache = new Map<string, { version: number; at: number; offered: Offered }>();

export async function offeredModels(db: Db, actor: string, name: string, now = Date.now()): Promise<Offered> {
  const c = await getConnection(db, name);
  if (c.models && c.models.length > 0) return { models: c.models, listed: true, sentence: null };
  const version = c.updatedAt.getTime();
  const kept = cache.get(name);
  if (kept && kept.version === version && now - kept.at < OFFERED_TTL_MS) return kept.offered;
  const key = await connectionKey(db, c.apiKey, { actor, what: `models of the model connection ${name}` });
  const listing = key.ok ? await listModels(c, key.key) : { ok: false as const, sentence: key.sentence };
  const offered: Offered = listing.ok
    ? { models: listing.models, listed: true, sentence: null }
    : { models: c.defaultModel ? [c.defaultModel] : [], listed: false, sentence: `${listing.sentence} Type the model's id instead.` };
  // A failed read is kept too, so an unreachable server is not asked again on every keystroke.
  cache.set(name, { version, at: now, offered });
  return offered;
}
