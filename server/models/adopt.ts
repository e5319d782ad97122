// Turning agents' inline models into a connection (R-conn-adopt): an admin names a connection for one agent's
// provider, address and key; it is created from them, and every agent written with that same provider, address and
// key is saved to reference it, each save a version like any other, with its model id and options kept.
import { asc, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents } from "@/db/schema";
import { isConnectionModel, type InlineModel } from "@/server/agents/declaration";
import { declarationOf, saveAgent, type Place } from "@/server/agents/store";
import { DomainError } from "@/server/errors";
import { baseUrlOf } from "./presets";
import { createConnection } from "./store";

export type InlineAgent = { agentId: string; agentName: string; provider: InlineModel["provider"]; model: string; baseUrl: string | null };

async function inlineRows(db: Db) {
  const rows = await db
    .select({ id: agents.id, name: agents.name, version: agents.version, declaration: agents.declaration })
    .from(agents)
    .where(sql`${agents.declaration}->'model'->>'connection' is null`)
    .orderBy(asc(sql`lower(${agents.name})`));
  return rows.flatMap((row) => {
    const declaration = declarationOf(row.declaration);
    return isConnectionModel(declaration.model) ? [] : [{ ...row, declaration, model: declaration.model }];
  });
}

/** The agents whose model is written inline. */
export async function inlineAgents(db: Db): Promise<InlineAgent[]> {
  return (await inlineRows(db)).map((r) => ({ agentId: r.id, agentName: r.name, provider: r.model.provider, model: r.model.model, baseUrl: r.model.base_url ?? null }));
}

/** Same provider, same address (a trailing slash or the provider's default aside) and same key. */
const sameServer = (a: InlineModel, b: InlineModel) =>
  a.provider === b.provider && baseUrlOf(a.provider, a.base_url) === baseUrlOf(b.provider, b.base_url) && (a.api_key ?? null) === (b.api_key ?? null);

export async function adoptInline(db: Db, actor: string, place: Place, input: { agentId: string; name: string }): Promise<{ connection: string; agents: string[] }> {
  const rows = await inlineRows(db);
  const first = rows.find((r) => r.id === input.agentId);
  if (!first) {
    throw new DomainError("NOT_FOUND", "NO_INLINE_MODEL", "That agent's model is not written inline (it may use a connection already, or be deleted); refresh the list.", { id: input.agentId });
  }
  const spec = first.model;
  await createConnection(db, actor, { name: input.name, provider: spec.provider, baseUrl: spec.base_url ?? null, apiKey: spec.api_key ?? null, defaultModel: spec.model, models: null });
  const moved: string[] = [];
  for (const row of rows.filter((r) => sameServer(r.model, spec))) {
    const { model, temperature, max_tokens, reasoning_effort } = row.model;
    const options = Object.fromEntries(Object.entries({ temperature, max_tokens, reasoning_effort }).filter(([, v]) => v !== undefined));
    // Each keeps its model by name, so a later change of the connection's default does not change what it runs on.
    const declaration = { ...row.declaration, model: { connection: input.name, model, ...options } };
    try {
      await saveAgent(db, actor, { id: row.id, baseVersion: row.version, declaration }, place, { summary: `Model moved to the connection ${input.name}` });
      moved.push(row.name);
    } catch (err) {
      // One that cannot be saved as it stands (a tool gone since, a save meanwhile) keeps its inline model and stays listed.
      if (!(err instanceof DomainError)) throw err;
    }
  }
  return { connection: input.name, agents: moved };
}
