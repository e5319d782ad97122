// What the model sees of an agent's tools: for each entry, its narrowed operations' name, description and input
// schema, and nothing else. Each tool is a new object built from those three fields, so settings, secrets,
// titles and behaviour cannot reach the model by construction (R-settings-hidden). Two tools of one name fail (R-loop-entry-clash).
import type { JsonSchema, Operation } from "@/server/operations/operation";
import { prefixed } from "@/server/catalog/mcp";
import type { Source } from "@/server/catalog/sources";
import { DomainError } from "@/server/errors";
import { resolveEntry } from "./entries";
import { withholdChanged, type Pins } from "./pins";

export type ModelTool = { name: string; description: string; input_schema: JsonSchema };

export type ViewProblem = { index: number; message: string };

export type ModelView = {
  tools: ModelTool[];
  /** Entries that give the model nothing until fixed, each with its sentence; their tools are left out. */
  problems: ViewProblem[];
};

export function modelTool(op: Operation): ModelTool {
  return { name: op.name, description: op.description, input_schema: structuredClone(op.input_schema) };
}

type Resolution = { source: Source; operations: Operation[] } | null;

/**
 * The operations renamed where an MCP server's tool shares its name with another entry's operation: the MCP one
 * becomes `slug__name` (R-mcp-names), its source learning the new name so a call still finds the tool. A clash
 * that remains (two servers of one slug) is refused by clashes().
 */
export function named<R extends Resolution>(resolved: readonly R[]): R[] {
  const owners = new Map<string, number>();
  resolved.forEach((r) => r?.operations.forEach((op) => owners.set(op.name, (owners.get(op.name) ?? 0) + 1)));
  return resolved.map((r) => {
    const mcp = r?.source.mcp;
    if (!r || !mcp || !r.operations.some((op) => (owners.get(op.name) ?? 0) > 1)) return r;
    const tools = { ...mcp.tools };
    const operations = r.operations.map((op) => {
      if ((owners.get(op.name) ?? 0) < 2) return op;
      const name = prefixed(mcp.slug, op.name);
      tools[name] = mcp.tools[op.name]!;
      return { ...op, name };
    });
    return { ...r, source: { ...r.source, mcp: { ...mcp, tools } }, operations };
  });
}

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

/** An entry as text (a preview), or as saved with its MCP pins (a run). */
export type ViewEntry = string | { entry: string; pins?: Pins };

export type AgentResolution = {
  /** Per entry, what it gives (MCP names made unique, changed tools withheld), or null when it gives nothing. */
  resolved: Array<(Resolution & { canonical: string }) | null>;
  refused: Set<number>;
  problems: ViewProblem[];
};

/** The entries against the sources: what each gives, and every problem in entry order. */
export function resolveAgent(entries: readonly ViewEntry[], sources: readonly Source[]): AgentResolution {
  const problems: ViewProblem[] = [];
  const resolved = named(
    entries.map((item, index) => {
      const r = resolveEntry(typeof item === "string" ? item : item.entry, sources);
      if (!r.ok) {
        r.problems.forEach((message) => problems.push({ index, message }));
        return null;
      }
      if (typeof item === "string") return r;
      const { resolution, notices } = withholdChanged(r, item.pins);
      notices.forEach((message) => problems.push({ index, message }));
      return resolution;
    }),
  );
  const clash = clashes(resolved);
  return { resolved, refused: clash.refused, problems: [...problems, ...clash.problems].sort((a, b) => a.index - b.index) };
}

/** The tool list for these entries, in their order; entries with a problem (or clashing names) offer nothing. */
export function modelView(entries: readonly ViewEntry[], sources: readonly Source[]): ModelView {
  const { resolved, refused, problems } = resolveAgent(entries, sources);
  const tools = resolved.flatMap((r, index) => (r && !refused.has(index) ? r.operations.map(modelTool) : []));
  return { tools, problems };
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
