// Where a secret is used: every place that holds a ${NAME} reference. One list of sources, so a new place that
// stores settings (an agent's entries are one) adds one function here and deletion and the list see it.
import { like, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolExamples } from "@/db/schema";
import { agentSecretReferences } from "@/server/agents/references";

/** One place a secret is referenced, in words a person can act on. */
export type SecretReference = {
  kind: "tool-example" | "agent";
  /** The referencing row's id. */
  id: string;
  /** "the Try it example “open a ticket” of tickets.py" */
  label: string;
  /** Where to go to change it. */
  href: string;
};

/** `${NAME}` references, as they appear in settings values. */
export const REFERENCE = /\$\{([A-Z][A-Z0-9_]*)\}/g;

/** The secret names a JSON-like value references, in order of first appearance. */
export function referencedNames(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === "string") for (const match of value.matchAll(REFERENCE)) into.add(match[1]!);
  else if (Array.isArray(value)) value.forEach((item) => referencedNames(item, into));
  else if (value !== null && typeof value === "object") Object.values(value).forEach((item) => referencedNames(item, into));
  return into;
}

type Found = { name: string; reference: SecretReference };
/** Finds references to `name`, or to every secret when name is null. */
type ReferenceSource = (db: Db, name: string | null) => Promise<Found[]>;

/** A LIKE pattern for `${NAME}` in a jsonb column's text (its `_` would otherwise match any character). */
function likeReference(name: string | null): string {
  return name === null ? "%${%" : `%\${${name.replace(/[\\%_]/g, "\\$&")}}%`;
}

const toolExampleReferences: ReferenceSource = async (db, name) => {
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

// A function, not a constant: agents' references import this module's helpers, and a list built at load
// time would meet that module half-loaded.
const sources = (): ReferenceSource[] => [toolExampleReferences, agentSecretReferences];

/** Everything that references the secret `name`. */
export async function findReferences(db: Db, name: string): Promise<SecretReference[]> {
  const found = await Promise.all(sources().map((source) => source(db, name)));
  return found.flat().map((f) => f.reference);
}

/** Every secret's references at once, by name (for the Secrets table). */
export async function allReferences(db: Db): Promise<Map<string, SecretReference[]>> {
  const byName = new Map<string, SecretReference[]>();
  for (const { name, reference } of (await Promise.all(sources().map((source) => source(db, null)))).flat()) {
    byName.set(name, [...(byName.get(name) ?? []), reference]);
  }
  return byName;
}
