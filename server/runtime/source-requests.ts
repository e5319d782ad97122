// Calls a running tool or program makes of the run's sources (R-loop-ctx-system, R-code-import): a tree tool's
// `ctx.system.<source>.<operation>(...)` and a compute_exec program's `quiver.sources.<module>.<function>(...)`.
// Each is a call of its own, nested under the call that made it and put through every rule a model's call meets
// (the agent must have been given the operation, its permission, the hook, its bound, masking, the audit row);
// dispatch.ts hands in how a call is recorded and performed. Also: the run's sources as code mode's modules.
import { parseEntry } from "@/server/agents/entries";
import { serverSlug } from "@/server/catalog/mcp";
import { fromTree } from "@/server/catalog/sources";
import { findServer } from "@/server/mcp/registry";
import { systemSource } from "@/server/system";
import { whenOf } from "@/server/system/compute/index-md";
import { firstLine, functionName, moduleName, parametersOf, uniqueNames, type CodeSources, type SourceAnswer, type SourceModule, type SourceRequest } from "@/server/system/compute/modules";
import { writeAgentIndex } from "@/server/system/compute/index-files";
import { parseArguments } from "./arguments";
import type { RunOperation } from "./catalog";
import { workFolder } from "./context";
import type { PreparedCall, ResultRecord, Run } from "./run";

/** How dispatch makes a nested call: a call id unique in the run, and the call recorded and put through every rule. */
export type Nested = { uniqueId(id: string): string; perform(p: PreparedCall): Promise<ResultRecord> };

/** What a module is called and says of itself, read once per run (the catalog keeps operations, not titles). */
type Head = Pick<SourceModule, "name" | "title" | "description">;

const heads = new WeakMap<Run, Promise<Map<string, Head>>>();

type Files = () => Promise<Map<string, { title: string; description: string }>>;

async function headOf(run: Run, op: RunOperation, files: Files): Promise<Head> {
  if (op.kind === "system") {
    const source = systemSource(op.source.slice("system:".length));
    return { name: moduleName("system", op.source), title: source?.title ?? op.source, description: source?.description ?? "" };
  }
  if (op.kind === "tree") {
    const file = (await files()).get(op.source.replace(/^tools\//, ""));
    return { name: moduleName("tree", op.source), title: file?.title ?? op.source, description: file?.description ?? "" };
  }
  if (op.kind === "agent") return { name: "agents", title: "Agents", description: "The studio's other agents this agent may give a task to." };
  const row = await findServer(run.deps.db, op.source).catch(() => null);
  return { name: moduleName("mcp", op.source, row ? serverSlug(row.name) : undefined), title: row?.name ?? op.source, description: row?.description ?? "" };
}

/** Each source's head, by entry; module names made unique (a tree file `files.py` beside Files becomes `files_2`). */
function headsOf(run: Run): Promise<Map<string, Head>> {
  let found = heads.get(run);
  if (!found) {
    // The tree's titles and descriptions, asked of its host once, and only for an agent with a tree file.
    let read: ReturnType<Files> | undefined;
    const files: Files = () =>
      (read ??= run.host
        .catalog()
        .then((c) => new Map(fromTree(c.files).map((f) => [f.entry.replace(/^tools\//, ""), { title: f.title, description: f.description }])))
        .catch(() => new Map()));
    const sources = [...new Map(run.catalog.operations.map((op) => [op.source, op])).values()];
    found = Promise.all(sources.map((op) => headOf(run, op, files))).then((list) => {
      const taken = new Set<string>();
      return new Map(
        list.map((head, i) => {
          let name = head.name;
          for (let n = 2; taken.has(name); n++) name = `${head.name}_${n}`;
          taken.add(name);
          return [sources[i]!.source, { ...head, name }];
        }),
      );
    });
    heads.set(run, found);
  }
  return found;
}

/** The run's sources as modules, in the catalog's order; compute_exec itself is not one (a program is already running). */
export async function codeModules(run: Run): Promise<SourceModule[]> {
  const found = await headsOf(run);
  const described = new Map(run.catalog.tools.map((t) => [t.name, t.description]));
  const modules = new Map<string, SourceModule>();
  for (const op of run.catalog.operations) {
    if (op.kind === "system" && op.name === "compute_exec") continue;
    const head = found.get(op.source)!;
    let entry = modules.get(op.source);
    if (!entry) {
      entry = { ...head, entry: op.source, kind: op.kind, when: "", functions: [] };
      entry.when = whenOf(entry);
      modules.set(op.source, entry);
    }
    const description = described.get(op.name) ?? op.title;
    entry.functions.push({
      // A tree tool is named by its file's stem, whatever its module is called after a clash.
      name: functionName(op.kind, op.name, moduleName("tree", op.source), op.mcp?.tool),
      operation: op.name,
      summary: firstLine(description),
      parameters: parametersOf(op.input_schema),
    });
  }
  return [...modules.values()].map((m) => ({ ...m, functions: uniqueNames(m.functions) }));
}

/** compute_exec's view of the run's sources; `call` goes back through dispatch (answerSourceRequest). */
export function codeSources(run: Run, call: (request: SourceRequest) => Promise<SourceAnswer>): CodeSources {
  return { modules: () => codeModules(run), call, folder: indexFolder(run) };
}

/** Where the agent's file tools read code mode's INDEX.md (R-code-index): its working folder, when Files or Shell can read it. */
export function indexFolder(run: Run): string | null {
  const reads = run.catalog.operations.some((op) => op.source === "system:filesystem" || op.source === "system:bash");
  return reads ? workFolder(run) : null;
}

const indexed = new WeakSet<Run>();

/**
 * Code mode's INDEX.md in the agent's working folder before the run's first call (R-code-index), so a model given
 * few tools can read what else it has before it writes a program; only for an agent with compute_exec and a file tool.
 */
export async function prepareSourceIndex(run: Run): Promise<void> {
  if (indexed.has(run)) return;
  indexed.add(run);
  const folder = indexFolder(run);
  if (!folder || !run.catalog.operations.some((op) => op.source === "system:compute" && op.name === "compute_exec")) return;
  // A courtesy to the file tools: a folder that cannot be written (a link, a missing root) leaves the run as it is.
  await writeAgentIndex(folder, run.deps.dataDir, await codeModules(run)).catch(() => undefined);
}

/** One nested call through every rule, answered with what the model would have read. */
async function nestedCall(run: Run, parent: string, suffix: string, op: RunOperation | null, called: string, args: Record<string, unknown>, refusal: string | null, how: Nested): Promise<SourceAnswer> {
  const callId = how.uniqueId(`${parent}/${suffix}`);
  const base = { callId, called, name: op?.name ?? called, parent };
  let p: PreparedCall;
  if (!op) {
    p = { ...base, op: null, args, early: { outcome: "refused", text: refusal ?? `${called} was refused and did not run.` } };
  } else {
    const parsed = parseArguments(JSON.stringify(args), op.name, op.input_schema);
    p = parsed.ok ? { ...base, op, args: parsed.args, early: null } : { ...base, op, args, early: { outcome: "refused", text: parsed.message } };
  }
  const result = await how.perform(p);
  return { outcome: result.outcome, text: result.text };
}

/** Why a program's call names nothing this agent may call, naming what it has. */
function notInModules(modules: SourceModule[], request: SourceRequest, label: string): string {
  const asked = modules.find((m) => m.name === request.source);
  if (!asked) {
    const have = modules.map((m) => `quiver.sources.${m.name}`).join(", ") || "none";
    return `${label} was refused and did not run: this agent has no source ${request.source}; it has ${have}.`;
  }
  const given = asked.functions.map((fn) => fn.name).join(", ") || "none of its operations";
  return `${label} was refused and did not run: this agent was not given ${request.function ?? request.operation} of ${asked.entry}; it was given ${given}.`;
}

/** A program's `quiver.sources.<module>.<function>(...)` (R-code-import, R-code-refusal). */
export async function answerSourceRequest(run: Run, parent: string, request: SourceRequest, how: Nested): Promise<SourceAnswer> {
  const modules = await codeModules(run);
  const label = request.function ? `quiver.sources.${request.source}.${request.function}` : `quiver.sources.${request.source}.call(${JSON.stringify(request.operation)})`;
  const asked = modules.find((m) => m.name === request.source);
  const fn = asked?.functions.find((f) => (request.function ? f.name === request.function : f.operation === request.operation || f.name === request.operation));
  const op = fn ? (run.catalog.operations.find((o) => o.name === fn.operation) ?? null) : null;
  return nestedCall(run, parent, "code", op, fn?.operation ?? request.function ?? request.operation ?? label, request.arguments, op ? null : notInModules(modules, request, label), how);
}

/** Why a tree tool's ctx.system call names nothing this agent may call, in a sentence the tool can pass on. */
function notGiven(run: Run, source: string, operation: string): string {
  const called = `ctx.system.${source}.${operation}`;
  const known = systemSource(source);
  if (!known) return `${called} did not run: the studio has no built-in source ${source}.`;
  if (!known.operations.some((o) => o.name === operation)) {
    return `${called} did not run: system:${source} has no operation ${operation}; its operations are ${known.operations.map((o) => o.name).join(", ")}.`;
  }
  const hasEntry = run.declaration.tools.some((t) => {
    const parsed = parseEntry(t.entry);
    return parsed.ok && parsed.entry.source === `system:${source}`;
  });
  return hasEntry
    ? `${called} was refused and did not run: this agent's entry for system:${source} does not name ${operation}.`
    : `${called} was refused and did not run: this agent was not given ${operation} of system:${source}; a builder can add it to the agent.`;
}

/** A tree tool's `ctx.system.<source>.<operation>(**arguments)` (R-loop-ctx-system). */
export function answerSystemRequest(run: Run, parent: string, request: { source: string; operation: string; arguments: Record<string, unknown> }, how: Nested): Promise<SourceAnswer> {
  const { source, operation, arguments: args } = request;
  const op = run.catalog.operations.find((o) => o.source === `system:${source}` && o.name === operation) ?? null;
  return nestedCall(run, parent, "system", op, operation, args, op ? null : notGiven(run, source, operation), how);
}
