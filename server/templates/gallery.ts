// What the gallery shows of each template (R-template-gallery): its name, its purpose, what it uses in the builder's
// words (each source's title, and the operations it narrows to), and which sources this studio lacks, so a card can
// say so before the agent is made. Templates whose file is broken are listed apart, with their problems.
import { listSources, type Source } from "@/server/catalog/sources";
import { parseEntry, resolveEntry } from "@/server/agents/entries";
import type { Problem } from "@/server/agents/declaration";
import { readTemplates } from "./templates";

export type TemplateUse = {
  entry: string;
  /** The source's title ("Files"), or the entry itself when the studio has no such source. */
  title: string;
  /** The operations' titles when the entry is narrowed to some; null for all of them. */
  operations: string[] | null;
  /** Why the studio cannot give this source now (no such file in the tree, a file with errors), or null. */
  missing: string | null;
};

export type TemplateCard = { id: string; name: string; purpose: string; uses: TemplateUse[] };

export type Gallery = { templates: TemplateCard[]; broken: Array<{ id: string; problems: Problem[] }> };

function useOf(entry: string, sources: readonly Source[], treeError: string | null): TemplateUse {
  const resolved = resolveEntry(entry, sources);
  if (resolved.ok) {
    const narrowed = resolved.entry.operations !== null;
    return { entry, title: resolved.source.title, operations: narrowed ? resolved.operations.map((op) => op.title) : null, missing: null };
  }
  const parsed = parseEntry(entry);
  const head = parsed.ok ? parsed.entry.source : entry;
  const source = sources.find((s) => s.entry === head);
  const why = parsed.ok && parsed.entry.kind === "tree" && treeError && !source ? `${head} cannot be checked: ${treeError}` : resolved.problems.join(" ");
  return { entry, title: source?.title ?? head, operations: null, missing: why };
}

export async function templateGallery(tree: string, dir?: string): Promise<Gallery> {
  const [files, { sources, treeError }] = await Promise.all([readTemplates(dir), listSources(tree)]);
  const templates: TemplateCard[] = [];
  const broken: Gallery["broken"] = [];
  for (const file of files) {
    if (!file.template) {
      broken.push({ id: file.id, problems: file.problems });
      continue;
    }
    const { declaration } = file.template;
    templates.push({
      id: file.id,
      name: declaration.name,
      purpose: declaration.description,
      uses: declaration.tools.map((tool) => useOf(tool.entry, sources, treeError)),
    });
  }
  return { templates, broken };
}
