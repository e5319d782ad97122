// Where agents use a secret: their model's key and their entries' settings hold ${NAME}. The secret store's
// findReferences lists these beside its own, so a secret an agent uses is not deleted from under it.
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents } from "@/db/schema";
import { referencedNames } from "@/server/secrets/references";

export type AgentSecretReference = {
  name: string;
  reference: { kind: "agent"; id: string; label: string; href: string };
};

/** A LIKE pattern for `${NAME}` in the declaration's JSON text (its `_` would otherwise match any character). */
function likeReference(name: string | null): string {
  return name === null ? "%${%" : `%\${${name.replace(/[\\%_]/g, "\\$&")}}%`;
}

/** Only the key and the settings: a `${NAME}` in the instructions is text, not a reference. */
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
