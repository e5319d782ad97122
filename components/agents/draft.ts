// The agent page's draft: the declaration being edited, kept as the builder typed it (a number field may hold
// text while it is wrong), and the pure helpers the sections share: entries, problems by field, dirtiness.
import { isConnectionModel, MODEL_OPTIONS, type AgentDeclaration, type InlineModel, type Problem, type ReasoningEffort } from "@/server/agents/declaration";
import type { PermissionLevel } from "@/server/agents/permissions";
import type { Source } from "@/server/catalog/sources";

export type Provider = InlineModel["provider"];

/**
 * The model as the builder edits it: a connection and a model, or (`connection` empty) the agent's own provider,
 * address and key. The own settings stay in the draft while a connection is picked, so going back loses nothing.
 * Options are text as typed; "" leaves the option out, so the provider's default applies.
 */
export type DraftModel = {
  connection: string;
  model: string;
  provider: Provider;
  base_url: string;
  api_key: string;
  temperature: string;
  max_tokens: string;
  reasoning_effort: ReasoningEffort | "";
};

export type DraftTool = { entry: string; settings: Record<string, unknown>; permissions: Record<string, PermissionLevel> };

export type Draft = {
  name: string;
  description: string;
  instructions: string;
  model: DraftModel;
  /** Numbers as typed: text until it is a number. */
  policy: { timeout_s: string; output_cap: string; retry: string; dedupe: boolean; permission: PermissionLevel };
  tools: DraftTool[];
};

function draftModelOf(m: AgentDeclaration["model"]): DraftModel {
  const options = {
    temperature: m.temperature === undefined ? "" : String(m.temperature),
    max_tokens: m.max_tokens === undefined ? "" : String(m.max_tokens),
    reasoning_effort: m.reasoning_effort ?? ("" as const),
  };
  if (isConnectionModel(m)) return { connection: m.connection, model: m.model ?? "", provider: "openai-compatible", base_url: "", api_key: "", ...options };
  return { connection: "", model: m.model, provider: m.provider, base_url: m.base_url ?? "", api_key: m.api_key ?? "", ...options };
}

export function fromDeclaration(d: AgentDeclaration): Draft {
  return {
    name: d.name,
    description: d.description,
    instructions: d.instructions,
    model: draftModelOf(d.model),
    policy: {
      timeout_s: String(d.policy.timeout_s),
      output_cap: String(d.policy.output_cap),
      retry: String(d.policy.retry),
      dedupe: d.policy.dedupe,
      permission: d.policy.permission,
    },
    tools: d.tools.map((t) => ({ entry: t.entry, settings: { ...t.settings }, permissions: { ...t.permissions } })),
  };
}

const asNumber = (text: string): number | string => (/^\s*-?\d+\s*$/.test(text) ? Number.parseInt(text, 10) : text);
const asDecimal = (text: string): number | string => (/^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(text) ? Number.parseFloat(text) : text);

/** The model the server is sent: a connection's reference, or the own settings; options only where written. */
function modelOf(m: DraftModel): Record<string, unknown> {
  const model: Record<string, unknown> = {};
  if (m.connection) {
    model.connection = m.connection;
    if (m.model.trim()) model.model = m.model.trim();
  } else {
    model.provider = m.provider;
    model.model = m.model;
    if (m.provider === "openai-compatible" && m.base_url.trim()) model.base_url = m.base_url.trim();
    if (m.api_key) model.api_key = m.api_key;
  }
  if (m.temperature.trim()) model.temperature = asDecimal(m.temperature);
  if (m.max_tokens.trim()) model.max_tokens = asNumber(m.max_tokens);
  if (m.reasoning_effort) model.reasoning_effort = m.reasoning_effort;
  return model;
}

/** The declaration the server is sent: numbers where they are numbers, empty optional fields left out. */
export function toDeclaration(draft: Draft): Record<string, unknown> {
  const model = modelOf(draft.model);
  return {
    name: draft.name,
    description: draft.description,
    instructions: draft.instructions,
    model,
    policy: {
      timeout_s: asNumber(draft.policy.timeout_s),
      output_cap: asNumber(draft.policy.output_cap),
      dedupe: draft.policy.dedupe,
      retry: asNumber(draft.policy.retry),
      permission: draft.policy.permission,
    },
    tools: draft.tools.map((t) => ({ entry: t.entry, settings: t.settings, permissions: t.permissions })),
  };
}

/** JSON with sorted keys: two drafts that say the same thing compare equal. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export function sameDraft(a: Draft, b: Draft): boolean {
  return stableJson(toDeclaration(a)) === stableJson(toDeclaration(b));
}

/** "system:filesystem#read_file,list_directory" → its source and the operations it names (null: every one). */
export function splitEntry(entry: string): { source: string; operations: string[] | null } {
  const hash = entry.indexOf("#");
  if (hash === -1) return { source: entry.trim(), operations: null };
  const operations = entry
    .slice(hash + 1)
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return { source: entry.slice(0, hash).trim(), operations };
}

export function joinEntry(source: string, operations: string[] | null): string {
  return operations === null ? source : `${source}#${operations.join(",")}`;
}

export function sourceOf(entry: string, sources: readonly Source[]): Source | undefined {
  const { source } = splitEntry(entry);
  return sources.find((s) => s.entry === source);
}

/** Which of the source's operations the entry gives the agent, in the source's order. */
export function chosenOperations(entry: string, source: Source): Set<string> {
  const { operations } = splitEntry(entry);
  return new Set(operations === null ? source.operations.map((op) => op.name) : operations);
}

/** The problems a field shows: exactly its path. */
export function problemsAt(problems: readonly Problem[], path: string): string[] {
  return problems.filter((p) => p.path === path).map((p) => p.message);
}

/** A DOM id for the control of a path, so the summary can link to it: "tools[1].settings.root" → "field-tools-1-settings-root". */
export function fieldId(path: string): string {
  return `field-${path.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/-+$/, "") || "agent"}`;
}

const POLICY_LIMITS = {
  timeout_s: { min: 1, max: 600, what: "seconds a call may take, from 1 to 600" },
  output_cap: { min: 1_000, max: 1_000_000, what: "characters the model reads of a result, from 1,000 to 1,000,000" },
  retry: { min: 0, max: 10, what: "retries, from 0 to 10" },
} as const;

/** What the browser can say at once, before the server is asked: the limits' numbers. */
export function localProblems(draft: Draft): Problem[] {
  const problems: Problem[] = [];
  for (const [key, limit] of Object.entries(POLICY_LIMITS) as [keyof typeof POLICY_LIMITS, (typeof POLICY_LIMITS)[keyof typeof POLICY_LIMITS]][]) {
    const value = asNumber(draft.policy[key]);
    if (typeof value !== "number" || value < limit.min || value > limit.max) {
      problems.push({ path: `policy.${key}`, message: `Write a whole number of ${limit.what}.` });
    }
  }
  draft.tools.forEach((tool, index) => {
    const { operations } = splitEntry(tool.entry);
    if (operations !== null && operations.length === 0) {
      problems.push({ path: `tools[${index}].entry`, message: "Tick at least one operation, or remove this source." });
    }
  });
  const { temperature, max_tokens } = MODEL_OPTIONS;
  const temp = draft.model.temperature.trim() ? asDecimal(draft.model.temperature) : null;
  if (temp !== null && (typeof temp !== "number" || temp < temperature.min || temp > temperature.max)) {
    problems.push({ path: "model.temperature", message: `Write the temperature as a number from ${temperature.min} to ${temperature.max}, such as 0.7, or leave it empty.` });
  }
  const tokens = draft.model.max_tokens.trim() ? asNumber(draft.model.max_tokens) : null;
  if (tokens !== null && (typeof tokens !== "number" || tokens < max_tokens.min || tokens > max_tokens.max)) {
    problems.push({ path: "model.max_tokens", message: `Write a whole number of tokens from ${max_tokens.min} to ${max_tokens.max.toLocaleString("en")}, or leave it empty.` });
  }
  if (draft.instructions.length > 100_000) problems.push({ path: "instructions", message: "Instructions hold at most 100,000 characters; shorten them." });
  return problems;
}

/** Local problems first; the server's for paths the browser said nothing about; each sentence once. */
export function mergeProblems(local: readonly Problem[], ...server: (readonly Problem[])[]): Problem[] {
  const localPaths = new Set(local.map((p) => p.path));
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const p of [...local, ...server.flat().filter((p) => !localPaths.has(p.path))]) {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}

const TOP_LABELS: Record<string, string> = {
  name: "Name",
  description: "Description",
  instructions: "Instructions",
  model: "Model",
  "model.connection": "Connection",
  "model.provider": "Provider",
  "model.model": "Model",
  "model.base_url": "Server address",
  "model.api_key": "Key",
  "model.temperature": "Temperature",
  "model.max_tokens": "Maximum output tokens",
  "model.reasoning_effort": "Reasoning effort",
  "policy.timeout_s": "Timeout",
  "policy.output_cap": "Output size",
  "policy.retry": "Retries",
  "policy.dedupe": "Repeated calls",
  "policy.permission": "Default approval",
  tools: "What this agent can use",
};

/** Where a problem is, in the builder's words: "Files · Settings · root". */
export function placeOf(path: string, entries: readonly string[], sources: readonly Source[]): string {
  if (TOP_LABELS[path]) return TOP_LABELS[path];
  const tool = /^tools\[(\d+)\](?:\.(entry|settings|permissions))?(?:\.(.+))?$/.exec(path);
  if (!tool) return path || "This agent";
  const entry = entries[Number(tool[1])] ?? "";
  const source = sourceOf(entry, sources);
  const title = source?.title ?? (splitEntry(entry).source || `Source ${Number(tool[1]) + 1}`);
  if (tool[2] === "settings") return tool[3] ? `${title} · Settings · ${tool[3]}` : `${title} · Settings`;
  if (tool[2] === "permissions") {
    const op = source?.operations.find((o) => o.name === tool[3]);
    return `${title} · Approval of ${op?.title ?? tool[3]}`;
  }
  return title;
}

/** The control a problem's path is shown at, for the summary's link. */
export function anchorOf(path: string): string {
  const tool = /^tools\[(\d+)\]\.(settings|permissions)\.([^.]+)/.exec(path);
  if (tool) return fieldId(`tools[${tool[1]}].${tool[2]}.${tool[3]}`);
  const card = /^tools\[(\d+)\]/.exec(path);
  if (card) return fieldId(`tools[${card[1]}]`);
  return fieldId(path);
}
