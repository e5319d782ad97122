// What the model sees of an agent's tools: for each entry, its narrowed operations' name, description and input
// schema, and nothing else. Each tool is a new object built from those three fields, so settings, secrets,
// titles and behaviour cannot reach the model by construction (R-settings-hidden). Two tools of one name fail (R-loop-entry-clash).
import type { JsonSchema, Operation } from "@/server/operations/operation";
import type { Source } from "@/server/catalog/sources";
import { DomainError } from "@/server/errors";
import { resolveEntry } from "./entries";

export type ModelTool = { name: string; description: string; input_schema: JsonSchema };

export type ViewProblem = { index: number; message: string };

export type ModelView = {
  tools: ModelTool[];
  /** Entries that give the model nothing until fixed, each with its sentence; their tools are left out. */
  problems: ViewProblem[];
};

function modelTool(op: Operation): ModelTool {
  return { name: op.name, description: op.description, input_schema: structuredClone(op.input_schema) };
}

type Resolution = { source: Source; operations: Operation[] } | null;

/**
 * Entries that clash, by index: a source listed twice, or two entries offering one operation name
 * (R-loop-entry-clash). Both entries of a name clash are refused, and the sentence names both sources.
 */
export function clashes(resolved: readonly Resolution[]): { problems: ViewProblem[]; refused: Set<number> } {
  const problems: ViewProblem[] = [];
  const refused = new Set<number>();
  const firstOfSource = new Map<string, number>();
  const owner = new Map<string, number>();
  resolved.forEach((r, index) => {
    if (!r) return;
    const earlier = firstOfSource.get(r.source.entry);
    if (earlier !== undefined) {
      problems.push({
        index,
        message: `${r.source.entry} is listed twice (tools[${earlier}] and tools[${index}]); keep one entry and name all the operations it needs there.`,
      });
      refused.add(index);
      return;
    }
    firstOfSource.set(r.source.entry, index);
    for (const op of r.operations) {
      const other = owner.get(op.name);
      if (other === undefined) {
        owner.set(op.name, index);
        continue;
      }
      const first = resolved[other]!.source.entry;
      problems.push({
        index,
        message: `Two entries offer an operation named ${op.name}: ${first} (tools[${other}]) and ${r.source.entry} (tools[${index}]); narrow one of them so the model is offered each name once.`,
      });
      refused.add(index).add(other);
    }
  });
  return { problems, refused };
}

/** The tool list for these entries, in their order; entries with a problem (or clashing names) offer nothing. */
export function modelView(entries: readonly string[], sources: readonly Source[]): ModelView {
  const problems: ViewProblem[] = [];
  const resolved = entries.map((text, index): Resolution => {
    const r = resolveEntry(text, sources);
    if (!r.ok) r.problems.forEach((message) => problems.push({ index, message }));
    return r.ok ? r : null;
  });
  const clash = clashes(resolved);
  const tools = resolved.flatMap((r, index) => (r && !clash.refused.has(index) ? r.operations.map(modelTool) : []));
  return { tools, problems: [...problems, ...clash.problems].sort((a, b) => a.index - b.index) };
}

/** The tool list a run sends, or a refusal that names every problem. */
export function modelToolsFor(entries: readonly string[], sources: readonly Source[]): ModelTool[] {
  const view = modelView(entries, sources);
  if (view.problems.length > 0) {
    throw new DomainError("BAD_REQUEST", "BAD_TOOLS", view.problems.map((p) => `tools[${p.index}]: ${p.message}`).join(" "), {
      problems: view.problems,
    });
  }
  return view.tools;
}
