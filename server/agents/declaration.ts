// The agent declaration (R-agent-declaration): the one shape export, import, every API and the CLI use. Its zod schema
// checks the shape; validate.ts checks it against the studio (sources, secrets, the workspace). Pure.
import { z } from "zod";
import { PERMISSION_LEVELS } from "./permissions";

export const PROVIDERS = ["openai", "anthropic", "openai-compatible"] as const;
export type Provider = (typeof PROVIDERS)[number];

export const permissionLevelSchema = z.enum(PERMISSION_LEVELS, { error: "write ALLOW, ASK or DENY" });

/** A model connection's name, as agents reference it (R-conn-name): lower-case letters, digits and dashes. */
export const CONNECTION_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const CONNECTION_NAME_RULE = "lower-case letters, digits and dashes, at most 63 characters, starting and ending with a letter or digit, e.g. local-ollama";

export const REASONING_EFFORTS = ["low", "medium", "high"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/**
 * The per-agent model options (R-conn-options). Each is optional; left out, it is not sent and the provider's own
 * default applies, which is what `shown` says beside the field.
 */
export const MODEL_OPTIONS = {
  temperature: { min: 0, max: 2, shown: "the provider's own (1 for OpenAI and Anthropic)" },
  max_tokens: { min: 1, max: 200_000, shown: "the provider's own limit for the model" },
  reasoning_effort: { values: REASONING_EFFORTS, shown: "the provider's own (OpenAI's is medium; others do not think unless asked)" },
} as const;

const modelOptions = {
  /** How varied the model's words are, from 0 (the same each time) to 2. */
  temperature: z.number({ error: "write the temperature as a number from 0 to 2, e.g. 0.7" }).min(0, "write a temperature of at least 0").max(2, "write a temperature of at most 2").optional(),
  /** The most tokens the model may write in one answer. */
  max_tokens: z.number({ error: "write the maximum output tokens as a whole number from 1 to 200000" }).int("write the maximum output tokens as a whole number").min(1, "write at least 1 output token").max(200_000, "write at most 200000 output tokens").optional(),
  /** How long a reasoning model thinks before answering, where its provider has a setting for it. */
  reasoning_effort: z.enum(REASONING_EFFORTS, { error: "write low, medium or high for the reasoning effort" }).optional(),
};

/** Today's form, kept for import and older agents: the provider, its address and key written into the agent. */
export const inlineModelSchema = z.strictObject({
  provider: z.enum(PROVIDERS, { error: "write openai, anthropic or openai-compatible" }),
  model: z.string({ error: "name the model, e.g. gpt-4o-mini" }).trim().min(1, "name the model, e.g. gpt-4o-mini").max(200),
  base_url: z.url({ protocol: /^https?$/, error: "write the server's address, e.g. http://127.0.0.1:11434/v1" }).optional(),
  /** `${NAME}` of the secret holding the key; never the key itself. */
  api_key: z.string({ error: "write the key as a secret reference, e.g. ${OPENAI_KEY}" }).max(80).optional(),
  ...modelOptions,
}, { error: "the model is an object: either a connection and a model, or a provider, a model and the server's address where the provider needs one" });

/** A model connection an admin keeps (R-conn-reference), by name; without a model, the connection's default. */
export const connectionModelSchema = z.strictObject({
  connection: z.string({ error: "name the model connection, e.g. local-ollama" }).trim().regex(CONNECTION_NAME, `write the connection's name: ${CONNECTION_NAME_RULE}`),
  model: z.string({ error: "name the model, e.g. qwen3, or leave it out for the connection's default" }).trim().min(1, "name the model, e.g. qwen3, or leave it out for the connection's default").max(200).optional(),
  ...modelOptions,
});

export const modelSchema = z.union([connectionModelSchema, inlineModelSchema], {
  error: "the model is an object: either a connection and a model, or a provider, a model and the server's address where the provider needs one",
});

export type InlineModel = z.output<typeof inlineModelSchema>;
export type ConnectionModel = z.output<typeof connectionModelSchema>;
export type ModelOptions = Pick<InlineModel, "temperature" | "max_tokens" | "reasoning_effort">;

export const isConnectionModel = (model: InlineModel | ConnectionModel): model is ConnectionModel => "connection" in model;

export const POLICY_DEFAULTS = { timeout_s: 25, output_cap: 20_000, dedupe: false, retry: 2, permission: "ALLOW" } as const;

export const policySchema = z.strictObject({
  /** Seconds a call may take when its operation declares no bound of its own (R-call-timeout-default: 25). */
  timeout_s: z.number({ error: "write whole seconds from 1 to 600" }).int().min(1).max(600, "a call is never bounded above 600 s").default(POLICY_DEFAULTS.timeout_s),
  /** Characters of a result the model reads before the cut (R-result-output-cap: 20,000). */
  output_cap: z.number({ error: "write a whole number of characters from 1000 to 1000000" }).int().min(1_000).max(1_000_000).default(POLICY_DEFAULTS.output_cap),
  /** Identical repeated calls within one run return the first result. */
  dedupe: z.boolean({ error: "write true or false" }).default(POLICY_DEFAULTS.dedupe),
  /** Retries of a safe or idempotent operation that failed transiently. */
  retry: z.number({ error: "write a whole number of retries from 0 to 10" }).int().min(0).max(10).default(POLICY_DEFAULTS.retry),
  /** What an operation without its own permission does. */
  permission: permissionLevelSchema.default(POLICY_DEFAULTS.permission),
}, { error: "the policy is an object of timeout_s, output_cap, dedupe, retry and permission" });

export const toolEntrySchema = z.strictObject({
  entry: z.string({ error: "name a source, e.g. system:filesystem" }).max(4_000),
  /** The builder's values for the source's settings model; secret fields hold `${NAME}`. */
  settings: z.record(z.string(), z.unknown(), { error: "settings are an object of field names to values" }).default({}),
  /** By operation name; an operation not listed takes the agent's default. */
  permissions: z.record(z.string(), permissionLevelSchema, { error: "permissions are an object of operation names to ALLOW, ASK or DENY" }).default({}),
  /** Seconds a call of the named operation may take, at most its own bound (an MCP tool's 300 s, R-mcp-timeout). */
  timeouts: z.record(z.string(), z.number({ error: "write whole seconds from 1 to 600" }).int().min(1).max(600), { error: "timeouts are an object of operation names to seconds" }).optional(),
  /** An MCP server's entry: each tool's pin as the builder saved it, by the server's tool name (R-mcp-pin-withheld). */
  pins: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/, "a pin is a sha256 in hex"), { error: "pins are an object of tool names to their sha256" }).optional(),
}, { error: "each entry is an object with entry, settings, permissions and, for an MCP server, pins" });

export const declarationSchema = z.strictObject({
  name: z.string({ error: "give the agent a name" }).trim().min(1, "give the agent a name").max(80, "a name has at most 80 characters"),
  description: z.string({ error: "write the description as text of at most 2000 characters" }).max(2_000).default(""),
  instructions: z.string({ error: "write the instructions as text of at most 100000 characters" }).max(100_000).default(""),
  model: modelSchema,
  policy: policySchema.prefault({}),
  tools: z.array(toolEntrySchema, { error: "tools is a list of entries" }).max(100, "an agent has at most 100 entries").default([]),
}, { error: "an agent's declaration is a JSON object with name, model and tools" });

export type AgentDeclaration = z.output<typeof declarationSchema>;
export type AgentDeclarationInput = z.input<typeof declarationSchema>;
export type ToolEntry = AgentDeclaration["tools"][number];

/** A problem with a declaration: where (`tools[1].settings.root`) and a sentence saying what to do. */
export type Problem = { path: string; message: string };

/** ["tools", 1, "settings", "root"] → "tools[1].settings.root" */
export function pathOf(parts: readonly PropertyKey[]): string {
  return parts.reduce<string>((out, part) => {
    if (typeof part === "number") return `${out}[${part}]`;
    return out === "" ? String(part) : `${out}.${String(part)}`;
  }, "");
}

/**
 * A model that fits neither form is told about the form it was written in (one with `connection` is the reference
 * form), rather than zod's "no branch matched".
 */
function chosenBranch(issue: z.core.$ZodIssue, input: unknown): z.core.$ZodIssue[] {
  if (issue.code !== "invalid_union" || issue.path.join(".") !== "model" || issue.errors.length !== 2) return [issue];
  const model = (input as { model?: unknown } | null)?.model;
  if (model === null || typeof model !== "object" || Array.isArray(model)) return [issue];
  const branch = issue.errors["connection" in model ? 0 : 1]!;
  return branch.length > 0 ? branch.map((one) => ({ ...one, path: [...issue.path, ...one.path] }) as z.core.$ZodIssue) : [issue];
}

/** The declaration's shape, or its problems in sentences with their paths. */
export function parseDeclaration(input: unknown): { declaration: AgentDeclaration; problems: [] } | { declaration: null; problems: Problem[] } {
  const parsed = declarationSchema.safeParse(input);
  if (parsed.success) return { declaration: parsed.data, problems: [] };
  const problems = parsed.error.issues.flatMap((found) => chosenBranch(found, input)).flatMap((issue): Problem[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: pathOf([...issue.path, key]),
        message: `${key} is not part of ${issue.path.length ? pathOf(issue.path) : "an agent's declaration"}; remove it or check its spelling.`,
      }));
    }
    return [{ path: pathOf(issue.path), message: issue.message.charAt(0).toUpperCase() + issue.message.slice(1) + (/[.?!]$/.test(issue.message) ? "" : ".") }];
  });
  return { declaration: null, problems };
}
