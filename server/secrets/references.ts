// Where a secret is used: every place that holds a ${NAME} reference. The places are a list of sources given by
// the caller, because some (an agent's entries) live in layers above the secrets: a new place that stores
// settings adds one source to that list, and deletion and the Secrets table see it.
import { like, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolExamples } from "@/db/schema";
import { likeReference, referencedNames } from "./names";

/** One place a secret is referenced, in words a person can act on. */
export type SecretReference = {
  kind: "tool-example" | "agent" | "mcp-server" | "model-connection";
  /** The referencing row's id. */
  id: string;
  /** "the Try it example “open a ticket” of tickets.py" */
  label: string;
  /** Where to go to change it. */
  href: string;
};

export type FoundReference = { name: string; reference: SecretReference };
/** Finds references to `name`, or to every secret when name is null. */
export type ReferenceSource = (db: Db, name: string | null) => Promise<FoundReference[]>;

/** The tree's saved Try it examples, whose settings may hold references. */
export const toolExampleReferences: ReferenceSource = async (db, name) => {
  const rows = await db
    .select({ id: toolExamples.id, path: toolExamples.path, tool: toolExamples.tool, title: toolExamples.title, settings: toolExamples.settings })
    .from(toolExamples)
    .where(like(sql<string>`${toolExamples.settings}::text`, likeReference(name)));
  return rows.flatMap((row) =>
    [...referencedNames(row.settings)]
      .filter((found) => name === null || found === name)
      .map((found) => ({
        name: found,
        reference: {
          kind: "tool-example" as const,
          id: row.id,
          label: `the Try it example “${row.title}” of ${row.path} (${row.tool})`,
          href: `/tools/${encodeURIComponent(row.path)}`,
        },
      })),
  );
};

/** Everything in `sources` that references the secret `name`. */
export async function findReferences(db: Db, sources: readonly ReferenceSource[], name: string): Promise<SecretReference[]> {
  const found = await Promise.all(sources.map((source) => source(db, name)));
  return found.flat().map((f) => f.reference);
}

/** Every secret's references at once, by name (for the Secrets table). */
export async function allReferences(db: Db, sources: readonly ReferenceSource[]): Promise<Map<string, SecretReference[]>> {
  const byName = new Map<string, SecretReference[]>();
  for (const { name, reference } of (await Promise.all(sources.map((source) => source(db, null)))).flat()) {
    byName.set(name, [...(byName.get(name) ?? []), reference]);
  }
  return byName;
}
