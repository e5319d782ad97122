// A declaration against the studio as it is now, on every save and import: its shape, each entry's source and
// operations, each setting, each secret it names, each permission's operation, and the model view's names.
// Every problem is named with its path; nothing stops at the first. Pure given its context (sources, secret names).
import type { Operation } from "@/server/operations/operation";
import type { Source } from "@/server/catalog/sources";
import { didYouMean } from "./closest";
import { SECRET_REFERENCE } from "@/server/secrets/names";
import type { ConnectionFacts } from "./connections";
import { isConnectionModel, parseDeclaration, toolEntrySchema, type AgentDeclaration, type ConnectionModel, type InlineModel, type Problem } from "./declaration";
import { resolveEntry } from "./entries";
import { clashes, named } from "./model-view";
import { settingsProblems, type SettingsContext } from "./settings";

export type ValidationContext = SettingsContext & {
  sources: readonly Source[];
  /** Why the tree's files could not be listed, when they could not. */
  treeError: string | null;
  /** The model connections by name (R-conn-reference); none when left out. */
  connections?: ReadonlyMap<string, ConnectionFacts>;
};

export type Validation = {
  /** The declaration with its defaults filled and its entries in canonical form; null when its shape is wrong. */
  declaration: AgentDeclaration | null;
  problems: Problem[];
  /** Per entry, the operations it gives the agent (null where the entry has a problem). */
  operations: (Operation[] | null)[];
};

const PROVIDER_NAMES = { openai: "OpenAI", anthropic: "Anthropic", "openai-compatible": "the server's" } as const;

const listed = (models: readonly string[]) => (models.length > 6 ? `${models.slice(0, 6).join(", ")} and ${models.length - 6} more` : models.join(", "));

/** An agent's model on a connection: the connection exists, and the model is one it offers (R-conn-reference). */
function connectionProblems(model: ConnectionModel, ctx: ValidationContext): Problem[] {
  const facts = ctx.connections?.get(model.connection);
  if (!facts) {
    const names = [...(ctx.connections?.keys() ?? [])];
    return [{
      path: "model.connection",
      message: `There is no model connection named ${model.connection}; pick one in the agent's Model section, or ask an admin to add it in Settings → Models.${didYouMean(model.connection, names)}`,
    }];
  }
  if (model.model === undefined) {
    return facts.defaultModel ? [] : [{ path: "model.model", message: `The connection ${model.connection} has no default model; name the model this agent uses.` }];
  }
  if (facts.models && facts.models.length > 0 && !facts.models.includes(model.model)) {
    return [{
      path: "model.model",
      message: `The connection ${model.connection} offers ${listed(facts.models)}, not ${model.model}; pick one of them, or ask an admin to add ${model.model} to the connection in Settings → Models.`,
    }];
  }
  return [];
}

function modelProblems(model: InlineModel | ConnectionModel, ctx: ValidationContext): Problem[] {
  if (isConnectionModel(model)) return connectionProblems(model, ctx);
  const problems: Problem[] = [];
  if (model.api_key === undefined || model.api_key === "") {
    if (model.provider !== "openai-compatible") {
      problems.push({ path: "model.api_key", message: `Pick the secret that holds your ${PROVIDER_NAMES[model.provider]} API key.` });
    }
  } else {
    const match = SECRET_REFERENCE.exec(model.api_key);
    if (!match) {
      problems.push({
        path: "model.api_key",
        message: "An API key is never written here: save it in Settings → Secrets and pick it by name (it is stored as ${NAME}).",
      });
    } else if (!ctx.secretNames.has(match[1]!)) {
      problems.push({ path: "model.api_key", message: `There is no secret named ${match[1]}; pick one that exists, or ask an admin to create it in Settings → Secrets.` });
    }
  }
  if (model.provider === "openai-compatible" && !model.base_url) {
    problems.push({ path: "model.base_url", message: "An OpenAI-compatible server needs its address, e.g. http://127.0.0.1:11434/v1." });
  }
  return problems;
}

type Checked = { tool: AgentDeclaration["tools"][number]; index: number };

function toolProblems({ tool, index }: Checked, ctx: ValidationContext): { problems: Problem[]; canonical: string | null; source: Source | null; operations: Operation[] | null } {
  const at = `tools[${index}]`;
  const problems: Problem[] = [];
  const resolved = resolveEntry(tool.entry, ctx.sources);
  if (!resolved.ok) {
    const tree = tool.entry.trim().startsWith("tools/");
    const missing = tree && ctx.treeError && !ctx.sources.some((s) => s.entry === tool.entry.split("#")[0]!.trim());
    const messages = missing ? [`${tool.entry} cannot be checked: ${ctx.treeError}`] : resolved.problems;
    return { problems: messages.map((message) => ({ path: `${at}.entry`, message })), canonical: null, source: null, operations: null };
  }
  const { source, operations } = resolved;
  problems.push(...settingsProblems(tool.settings, source.settings_schema, source.title, `${at}.settings`, ctx));
  const names = operations.map((op) => op.name);
  for (const name of Object.keys(tool.permissions)) {
    if (names.includes(name)) continue;
    const elsewhere = source.operations.some((op) => op.name === name);
    problems.push({
      path: `${at}.permissions.${name}`,
      message: elsewhere
        ? `${name} is not among the operations this entry gives the agent (${names.join(", ")}); remove its approval or add the operation.`
        : `${source.entry} has no operation ${name}.${didYouMean(name, names)}`,
    });
  }
  return { problems, canonical: resolved.canonical, source, operations };
}

export function validateDeclaration(input: unknown, ctx: ValidationContext): Validation {
  const parsed = parseDeclaration(input);
  const problems: Problem[] = [...parsed.problems];
  // With a wrong shape elsewhere, the entries that do parse are still checked, so an import names every problem.
  let tools: Checked[];
  if (parsed.declaration) {
    tools = parsed.declaration.tools.map((tool, index) => ({ tool, index }));
    problems.push(...modelProblems(parsed.declaration.model, ctx));
  } else {
    const raw = (input as { tools?: unknown } | null)?.tools;
    tools = (Array.isArray(raw) ? raw : []).flatMap((item, index) => {
      const one = toolEntrySchema.safeParse(item);
      return one.success ? [{ tool: one.data, index }] : [];
    });
  }
  const results = tools.map((checked) => toolProblems(checked, ctx));
  results.forEach((r) => problems.push(...r.problems));
  // Aligned with the declaration's own indexes, so a clash's sentence names the right entries.
  const aligned = Array.from({ length: Math.max(0, ...tools.map((t) => t.index + 1)) }, () => null as { source: Source; operations: Operation[] } | null);
  results.forEach((r, i) => {
    if (r.source && r.operations) aligned[tools[i]!.index] = { source: r.source, operations: r.operations };
  });
  const renamed = named(aligned);
  const clash = clashes(renamed);
  for (const p of clash.problems) problems.push({ path: `tools[${p.index}].entry`, message: p.message });
  const operations = renamed.map((r, index) => (r && !clash.refused.has(index) ? r.operations : null));
  const declaration = parsed.declaration && {
    ...parsed.declaration,
    tools: parsed.declaration.tools.map((tool, index) => ({ ...tool, entry: results[index]?.canonical ?? tool.entry.trim() })),
  };
  return { declaration, problems, operations };
}
