// An agent's model as a run opens it (R-conn-resolve): a connection is read when each segment of a run starts, so a
// rotated key or a moved address reaches every agent that uses it on its next run, with nothing to re-save.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { modelConnections } from "@/db/schema";
import { isConnectionModel, type AgentDeclaration, type Provider } from "@/server/agents/declaration";
import { ModelProblem, type ModelSpec } from "./open";

type Declared = AgentDeclaration["model"];

async function connectionRow(db: Db, name: string) {
  const [row] = await db.select().from(modelConnections).where(eq(modelConnections.name, name));
  return row ?? null;
}

/** The model ready to open; a connection that is gone, or gives no model, is a ModelProblem with its sentence. */
export async function resolveModel(db: Db, model: Declared): Promise<ModelSpec> {
  if (!isConnectionModel(model)) return { ...model, connection: null };
  const { connection: name, model: id, ...options } = model;
  const row = await connectionRow(db, name);
  if (!row) {
    throw new ModelProblem(`There is no model connection named ${name} any more; pick another in the agent's Model section, or ask an admin to add it in Settings → Models.`);
  }
  const picked = id ?? row.defaultModel;
  if (!picked) throw new ModelProblem(`The connection ${name} has no default model and the agent names none; pick a model in the agent's Model section.`);
  return {
    provider: row.provider as Provider,
    model: picked,
    ...(row.baseUrl ? { base_url: row.baseUrl } : {}),
    ...(row.apiKey ? { api_key: row.apiKey } : {}),
    ...options,
    connection: name,
  };
}

/** The provider the model is on, for what depends on it before the model is opened (its built-in tools, MCP schemas); null when a connection is gone. */
export async function providerOf(db: Db, model: Declared): Promise<Provider | null> {
  if (!isConnectionModel(model)) return model.provider;
  return ((await connectionRow(db, model.connection))?.provider as Provider | undefined) ?? null;
}
