// Export and import: an agent as its declaration JSON (R-agent-declaration), to keep in a repository or move between
// studios. An export never holds a secret's value, only `${NAME}` references; an import is validated like a save
// and becomes a new agent, or is refused with every problem named.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { listSources } from "@/server/catalog/sources";
import { DomainError } from "@/server/errors";
import { SECRET_REFERENCE } from "@/server/secrets/names";
import { parseDeclaration, type AgentDeclaration } from "./declaration";
import { resolveEntry } from "./entries";
import { keepPinnedTexts } from "./pin-texts";
import { isSecretField } from "./settings";
import { checked, createAgentChecked, freeName, getAgent, invalid, type AgentDetail, type Place } from "./store";

export type Exported = {
  /** e.g. "triage.agent.json" */
  filename: string;
  json: string;
  /** Settings left out because their field is a secret now and held something other than a reference. */
  withheld: string[];
};

function filenameOf(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return `${slug || "agent"}.agent.json`;
}

/**
 * The declaration as JSON. Saved secret fields hold references by validation; a field that became a secret since
 * the save (its file changed) is left out rather than exported with what it holds.
 */
export async function exportAgent(db: Db, id: string, place: Place): Promise<Exported> {
  const [row] = await db.select({ declaration: agents.declaration }).from(agents).where(eq(agents.id, id));
  if (!row) throw new DomainError("NOT_FOUND", "NO_SUCH_AGENT", "There is no such agent; it may have been deleted meanwhile.", { id });
  const declaration = parseDeclaration(row.declaration).declaration!;
  const { sources } = await listSources(place.tree);
  const withheld: string[] = [];
  const tools = declaration.tools.map((tool, index) => {
    const resolved = resolveEntry(tool.entry, sources);
    const properties = (resolved.ok ? (resolved.source.settings_schema?.properties ?? {}) : {}) as Record<string, Record<string, unknown>>;
    const settings = Object.fromEntries(
      Object.entries(tool.settings).filter(([key, value]) => {
        const secret = properties[key] && isSecretField(properties[key]);
        const keep = !secret || value === null || (typeof value === "string" && SECRET_REFERENCE.test(value));
        if (!keep) withheld.push(`tools[${index}].settings.${key}`);
        return keep;
      }),
    );
    return { ...tool, settings };
  });
  const out: AgentDeclaration = { ...declaration, tools };
  return { filename: filenameOf(declaration.name), json: `${JSON.stringify(out, null, 2)}\n`, withheld };
}

export type Imported = { agent: AgentDetail; /** The name in the file, when another agent had it and the import took a free one. */ renamedFrom: string | null };

/** A new agent from exported JSON; a name already in use takes the next free one ("triage 2"). */
export async function importAgent(db: Db, actor: string, json: string, place: Place): Promise<Imported> {
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch (err) {
    throw invalid([{ path: "", message: `This is not JSON (${(err as Error).message}); export the agent again, or paste the whole file.` }], "imported");
  }
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw invalid([{ path: "", message: "An agent's declaration is a JSON object with name, model and tools; this file holds something else." }], "imported");
  }
  let renamedFrom: string | null = null;
  const named = (input as { name?: unknown }).name;
  if (typeof named === "string" && named.trim()) {
    const free = await freeName(db, named.trim());
    if (free !== named.trim()) {
      renamedFrom = named.trim();
      input = { ...input, name: free };
    }
  }
  const { declaration, fingerprints, context } = await checked(db, input, place, { what: "imported" });
  await keepPinnedTexts(db, declaration, context.sources);
  const id = await createAgentChecked(db, actor, declaration, fingerprints, renamedFrom ? `Imported (named ${renamedFrom} in the file)` : "Imported");
  await recordAudit(db, { actor, action: "agent.imported", target: declaration.name, detail: { id } });
  return { agent: await getAgent(db, id, place), renamedFrom };
}
