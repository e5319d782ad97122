// The model connections as agents see them (R-conn-reference): what validation checks an agent's model against and
// what a list of agents shows, read straight from their table; the connections' own store is server/models/, a
// layer above, which keeps them. A connection's key is also a place a secret is used.
import { asc, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { modelConnections } from "@/db/schema";
import { likeReference, referencedNames } from "@/server/secrets/names";
import type { FoundReference, ReferenceSource } from "@/server/secrets/references";
import { isConnectionModel, type ConnectionModel, type InlineModel, type Provider } from "./declaration";

/** What an agent's model needs to know of a connection. */
export type ConnectionFacts = { provider: Provider; defaultModel: string | null; models: string[] | null };

export async function connectionFacts(db: Db): Promise<Map<string, ConnectionFacts>> {
  const rows = await db
    .select({ name: modelConnections.name, provider: modelConnections.provider, defaultModel: modelConnections.defaultModel, models: modelConnections.models })
    .from(modelConnections)
    .orderBy(asc(modelConnections.name));
  return new Map(rows.map((row) => [row.name, { provider: row.provider as Provider, defaultModel: row.defaultModel, models: row.models ?? null }]));
}

/** The model in a list's words: the provider (the connection's name for a connection) and the model id. */
export function modelSummary(model: InlineModel | ConnectionModel, connections: ReadonlyMap<string, ConnectionFacts>) {
  if (!isConnectionModel(model)) return { provider: model.provider as string, model: model.model, connection: null };
  const facts = connections.get(model.connection);
  return { provider: facts?.provider ?? model.connection, model: model.model ?? facts?.defaultModel ?? "", connection: model.connection };
}

/** The connections whose key is `${name}` (any secret when name is null): a secret in use is not deleted from under them. */
export const connectionSecretReferences: ReferenceSource = async (db: Db, name: string | null): Promise<FoundReference[]> => {
  const rows = await db
    .select({ name: modelConnections.name, apiKey: modelConnections.apiKey })
    .from(modelConnections)
    .where(sql`coalesce(${modelConnections.apiKey}, '') like ${likeReference(name)}`);
  return rows.flatMap((row) =>
    [...referencedNames(row.apiKey)]
      .filter((found) => name === null || found === name)
      .map((found) => ({
        name: found,
        reference: { kind: "model-connection" as const, id: row.name, label: `the model connection “${row.name}”`, href: `/settings/models#${row.name}` },
      })),
  );
};
