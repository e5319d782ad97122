// Where agents use a secret: their model's key and their entries' settings hold ${NAME}. With the tree's Try it
// examples, the MCP servers' rows and the model connections' keys these are every place a secret is referenced
// (secretReferenceSources), so the Secrets table lists them and a secret in use is not deleted from under it.
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents } from "@/db/schema";
import { mcpServerReferences } from "@/server/mcp/registry-references";
import { likeReference, referencedNames } from "@/server/secrets/names";
import { toolExampleReferences, type ReferenceSource } from "@/server/secrets/references";
import { connectionSecretReferences } from "./connections";

export type AgentSecretReference = {
  name: string;
  reference: { kind: "agent"; id: string; label: string; href: string };
};

/** Only the key and the settings: a `${NAME}` in the instructions is text, not a reference. An agent on a connection holds no key. */
function secretFields(declaration: Record<string, unknown>): unknown {
  const d = declaration as { model?: { api_key?: unknown }; tools?: Array<{ settings?: unknown }> };
  return [d.model?.api_key ?? null, ...(d.tools ?? []).map((tool) => tool.settings ?? null)];
}

/** The agents whose declaration references `name` (or any secret, when name is null), one row per secret and agent. */
export async function agentSecretReferences(db: Db, name: string | null): Promise<AgentSecretReference[]> {
  const rows = await db
    .select({ id: agents.id, name: agents.name, declaration: agents.declaration })
    .from(agents)
    .where(sql`${agents.declaration}::text like ${likeReference(name)}`);
  return rows.flatMap((row) =>
    [...referencedNames(secretFields(row.declaration))]
      .filter((found) => name === null || found === name)
      .map((found) => ({
        name: found,
        reference: { kind: "agent" as const, id: row.id, label: `the agent “${row.name}”`, href: `/agents/${row.id}` },
      })),
  );
}

/** Every place that holds `${NAME}` references, for the secret store's list and its refusal to delete one in use. */
export const secretReferenceSources: readonly ReferenceSource[] = [toolExampleReferences, agentSecretReferences, mcpServerReferences, connectionSecretReferences];
