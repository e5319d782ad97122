// An agent made from a template, or a blank one (R-template-open): the template's declaration with the studio's
// model and a free name. Unlike a save, what the studio cannot satisfy yet does not stop it (R-template-missing): a
// source the tree lacks, a secret still to pick, a setting to fill. The agent is made as the template says, and its
// page lists those problems until the builder resolves them; only a template that is not a declaration is refused.
import type { Db } from "@/db/client";
import { recordAudit } from "@/server/audit/record";
import { POLICY_DEFAULTS, type AgentDeclaration, type Problem } from "@/server/agents/declaration";
import { fingerprint, type EntryPrint } from "@/server/agents/drift";
import { mcpServersIn } from "@/server/agents/entries";
import { createAgentChecked, freeName, invalid, validationContext, type Place } from "@/server/agents/store";
import { validateDeclaration } from "@/server/agents/validate";
import { DomainError } from "@/server/errors";
import { startingModel } from "./model";
import { readTemplates } from "./templates";

const BLANK: Omit<AgentDeclaration, "model"> = { name: "New agent", description: "", instructions: "", policy: POLICY_DEFAULTS, tools: [] };

export type Created = { id: string; name: string; /** What the builder still has to resolve, as the agent page will list it. */ problems: Problem[] };

async function templateDeclaration(template: string | null, dir?: string) {
  if (template === null) return BLANK;
  const file = (await readTemplates(dir)).find((t) => t.id === template);
  if (!file) throw new DomainError("NOT_FOUND", "NO_SUCH_TEMPLATE", `There is no template ${template}; pick one the gallery lists.`, { template });
  if (!file.template) {
    const first = file.problems[0];
    throw new DomainError("BAD_REQUEST", "BAD_TEMPLATE", `The template ${template} cannot be used: ${first?.path ? `${first.path}: ` : ""}${first?.message ?? "it is not a declaration"}`, {
      problems: file.problems,
    });
  }
  return file.template.declaration;
}

/** `template` is a template's id, or null for a blank agent. */
export async function createFromTemplate(db: Db, actor: string, template: string | null, place: Place, dir?: string): Promise<Created> {
  const base = await templateDeclaration(template, dir);
  const input = { ...base, name: await freeName(db, base.name), model: await startingModel(db) };
  const context = await validationContext(db, place, mcpServersIn(input.tools.map((t) => t.entry)));
  const { declaration, problems, operations } = validateDeclaration(input, context);
  if (!declaration) throw invalid(problems, "created");
  // Only entries that resolved have a print: one the tree lacks is named by validation, not reported as drift.
  const fingerprints: EntryPrint[] = declaration.tools.flatMap((tool, i) => {
    const offered = operations[i];
    return offered ? [{ entry: tool.entry, operations: fingerprint(offered) }] : [];
  });
  const summary = template === null ? "Created" : `Created from the template ${base.name}`;
  const id = await createAgentChecked(db, actor, declaration, fingerprints, summary);
  await recordAudit(db, { actor, action: "agent.created", target: declaration.name, detail: { id, template } });
  return { id, name: declaration.name, problems };
}
