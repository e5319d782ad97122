// The model connections an admin keeps (R-conn-shape): create, update, delete and list, each write an audit row.
// The key is held as the `${NAME}` of a secret, never a value; a connection agents use is not deleted from under them.
// Edit when a connection gains a field.
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents, modelConnections } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import { SECRET_REFERENCE } from "@/server/secrets/names";
import { secretNames } from "@/server/secrets/store";
import { connectionNameProblem, PROVIDER_LABELS, PROVIDERS, type Provider } from "./presets";
import { pricesText, type PriceText } from "./price-words";

export type ConnectionFields = {
  provider: Provider;
  baseUrl: string | null;
  /** `${NAME}` of the secret holding the key, or null for a server that takes none. */
  apiKey: string | null;
  defaultModel: string | null;
  /** The models builders may pick, or null for every model the provider lists. */
  models: string[] | null;
};

/** What a connection is, with its prices (R-cost-price), which are set on their own (prices.ts). */
export type Connection = ConnectionFields & { name: string; updatedAt: Date; currency: string; prices: PriceText[] };
export type ConnectionRow = Connection & { usedBy: Array<{ id: string; name: string }> };

/** What create takes; update takes the name and any of the rest (left out: kept; null: cleared). */
export type ConnectionInput = { name: string; provider: Provider } & Partial<Omit<ConnectionFields, "provider">>;
export type ConnectionChange = { name: string } & Partial<ConnectionFields>;

export const MODEL_ID_MAX = 200;
export const MODELS_MAX = 500;

const columns = {
  name: modelConnections.name,
  provider: modelConnections.provider,
  baseUrl: modelConnections.baseUrl,
  apiKey: modelConnections.apiKey,
  defaultModel: modelConnections.defaultModel,
  models: modelConnections.models,
  currency: modelConnections.currency,
  prices: modelConnections.prices,
  updatedAt: modelConnections.updatedAt,
};

const refuse = (field: string, message: string) => new DomainError("BAD_REQUEST", "BAD_CONNECTION", message, { field });

function noSuchConnection(name: string): DomainError {
  return new DomainError("NOT_FOUND", "NO_SUCH_CONNECTION", `There is no model connection named ${name}; it may have been deleted meanwhile.`, { name });
}

const rowOf = (row: { provider: string; models: string[] | null; prices: Record<string, { input: number; output: number }> } & Omit<Connection, "provider" | "models" | "prices">): Connection => ({
  ...row,
  provider: row.provider as Provider,
  models: row.models ?? null,
  prices: pricesText(row.prices),
});

/** The fields cleaned (trimmed, blanks as null) and checked, each problem a sentence naming its field. */
async function checkedFields(db: Db, fields: ConnectionFields): Promise<ConnectionFields> {
  if (!PROVIDERS.includes(fields.provider)) throw refuse("provider", "Pick the provider: OpenAI, Anthropic or OpenAI-compatible.");
  const baseUrl = fields.baseUrl?.trim() || null;
  if (baseUrl !== null) {
    let url: URL | null = null;
    try {
      url = new URL(baseUrl);
    } catch {
      url = null;
    }
    if (!url || !/^https?:$/.test(url.protocol)) throw refuse("baseUrl", "Write the server's address as an http or https URL, e.g. http://127.0.0.1:11434/v1.");
    if (url.username || url.password) throw refuse("baseUrl", "Leave the key out of the address: save it in Settings → Secrets and pick it as the key.");
  } else if (fields.provider === "openai-compatible") {
    throw refuse("baseUrl", "An OpenAI-compatible server needs its address, e.g. http://127.0.0.1:11434/v1 for Ollama.");
  }
  const apiKey = fields.apiKey?.trim() || null;
  if (apiKey === null) {
    if (fields.provider !== "openai-compatible") throw refuse("apiKey", `Pick the secret that holds your ${PROVIDER_LABELS[fields.provider]} API key.`);
  } else {
    const name = SECRET_REFERENCE.exec(apiKey)?.[1];
    if (!name) throw refuse("apiKey", "A key is never written here: save it in Settings → Secrets and pick it by name (it is stored as ${NAME}).");
    if (!(await secretNames(db)).some((s) => s.name === name)) {
      throw refuse("apiKey", `There is no secret named ${name}; create it in Settings → Secrets first, or pick one that exists.`);
    }
  }
  const models = fields.models === null ? null : [...new Set(fields.models.map((m) => m.trim()).filter(Boolean))];
  if (models && models.length > MODELS_MAX) throw refuse("models", `A connection lists at most ${MODELS_MAX} models; leave the list empty to offer every model the provider lists.`);
  const long = models?.find((m) => m.length > MODEL_ID_MAX);
  if (long) throw refuse("models", `A model id has at most ${MODEL_ID_MAX} characters; “${long.slice(0, 40)}…” is longer.`);
  const defaultModel = fields.defaultModel?.trim() || null;
  if (defaultModel && defaultModel.length > MODEL_ID_MAX) throw refuse("defaultModel", `A model id has at most ${MODEL_ID_MAX} characters.`);
  if (defaultModel && models && models.length > 0 && !models.includes(defaultModel)) {
    throw refuse("defaultModel", `The default model ${defaultModel} is not among the models builders may pick; add it to the list or pick one of them.`);
  }
  return { provider: fields.provider, baseUrl, apiKey, defaultModel, models: models && models.length > 0 ? models : null };
}

/** The agents whose model names the connection, by name. */
export async function connectionUsers(db: Db, name: string | null): Promise<Array<{ id: string; name: string; connection: string }>> {
  const connection = sql<string>`${agents.declaration}->'model'->>'connection'`;
  return db
    .select({ id: agents.id, name: agents.name, connection })
    .from(agents)
    .where(name === null ? sql`${connection} is not null` : sql`${connection} = ${name}`)
    .orderBy(asc(sql`lower(${agents.name})`));
}

export async function getConnection(db: Db, name: string): Promise<Connection> {
  const [row] = await db.select(columns).from(modelConnections).where(eq(modelConnections.name, name));
  if (!row) throw noSuchConnection(name);
  return rowOf(row);
}

/** Every connection with the agents that use it. */
export async function listConnections(db: Db): Promise<ConnectionRow[]> {
  const [rows, users] = await Promise.all([db.select(columns).from(modelConnections).orderBy(asc(modelConnections.name)), connectionUsers(db, null)]);
  return rows.map((row) => ({ ...rowOf(row), usedBy: users.filter((u) => u.connection === row.name).map(({ id, name }) => ({ id, name })) }));
}

/** What an audit row says of a connection: the key only as its reference. */
const audited = (name: string, f: ConnectionFields) => ({ name, provider: f.provider, baseUrl: f.baseUrl, apiKey: f.apiKey, defaultModel: f.defaultModel, models: f.models });

export async function createConnection(db: Db, actor: string, input: ConnectionInput): Promise<Connection> {
  const problem = connectionNameProblem(input.name);
  if (problem) throw refuse("name", problem);
  const fields = await checkedFields(db, { provider: input.provider, baseUrl: input.baseUrl ?? null, apiKey: input.apiKey ?? null, defaultModel: input.defaultModel ?? null, models: input.models ?? null });
  const [row] = await db
    .insert(modelConnections)
    .values({ name: input.name, ...fields, createdBy: actor, updatedBy: actor })
    .onConflictDoNothing({ target: modelConnections.name })
    .returning(columns);
  if (!row) throw new DomainError("CONFLICT", "CONNECTION_EXISTS", `A model connection named ${input.name} already exists; pick another name, or edit that one.`, { name: input.name });
  await recordAudit(db, { actor, action: "model-connection.created", target: input.name, detail: audited(input.name, fields) });
  return rowOf(row);
}

/** New fields for a connection; every agent that uses it gets them on its next run (R-conn-resolve). */
export async function updateConnection(db: Db, actor: string, input: ConnectionChange): Promise<Connection> {
  const current = await getConnection(db, input.name);
  const pick = <K extends keyof ConnectionFields>(key: K): ConnectionFields[K] => (input[key] === undefined ? current[key] : input[key]!) as ConnectionFields[K];
  const fields = await checkedFields(db, { provider: pick("provider"), baseUrl: pick("baseUrl"), apiKey: pick("apiKey"), defaultModel: pick("defaultModel"), models: pick("models") });
  const [row] = await db
    .update(modelConnections)
    .set({ ...fields, updatedBy: actor, updatedAt: new Date() })
    .where(eq(modelConnections.name, input.name))
    .returning(columns);
  if (!row) throw noSuchConnection(input.name);
  await recordAudit(db, { actor, action: "model-connection.updated", target: input.name, detail: audited(input.name, fields) });
  return rowOf(row);
}

/** Deletes a connection no agent uses; while any does, refuses and names them. */
export async function removeConnection(db: Db, actor: string, name: string): Promise<{ name: string }> {
  const users = await connectionUsers(db, name);
  if (users.length > 0) {
    const shown = users.slice(0, 3).map((u) => `“${u.name}”`);
    const more = users.length > 3 ? ` and ${users.length - 3} more` : "";
    throw new DomainError(
      "CONFLICT",
      "CONNECTION_IN_USE",
      `${name} is used by the agent${users.length === 1 ? "" : "s"} ${shown.join(", ")}${more}; move ${users.length === 1 ? "it" : "them"} to another connection first, then delete it.`,
      { name, agents: users.map(({ id, name: agent }) => ({ id, name: agent })) },
    );
  }
  const [row] = await db.delete(modelConnections).where(eq(modelConnections.name, name)).returning({ name: modelConnections.name });
  if (!row) throw noSuchConnection(name);
  await recordAudit(db, { actor, action: "model-connection.deleted", target: name });
  return row;
}
