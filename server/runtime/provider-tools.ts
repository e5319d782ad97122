// A tree module with BUILT_IN = True names a tool its model's provider runs on its side (R-builtin-provider): the
// run hands it to the provider as an AI SDK provider-defined tool (`type: "provider"`), and nothing in the studio or
// the tool host ever runs it. Only tools the provider itself executes are taken: OpenAI's Responses tools and
// Anthropic's server tools. One the agent's provider does not have (a client-run provider tool such as a shell,
// another provider's, an OpenAI-compatible server, which has none) is withheld with a sentence (R-builtin-withheld).
// Edit when a provider, or a tool a provider runs, is added.
import type { LanguageModelV4ProviderTool } from "@ai-sdk/provider";
import type { AgentDeclaration } from "@/server/agents/declaration";

export type ProviderToolSpec = { id: string; args: Record<string, unknown> };

type Provider = AgentDeclaration["model"]["provider"];

/** The tools each provider runs on its own side, by the AI SDK's id. */
const RUN_BY_PROVIDER: Record<Provider, readonly string[]> = {
  openai: ["openai.web_search", "openai.web_search_preview", "openai.file_search", "openai.code_interpreter", "openai.image_generation"],
  anthropic: [
    "anthropic.web_search_20250305",
    "anthropic.web_search_20260209",
    "anthropic.web_search_20260318",
    "anthropic.web_fetch_20250910",
    "anthropic.web_fetch_20260209",
    "anthropic.web_fetch_20260318",
    "anthropic.code_execution_20250522",
    "anthropic.code_execution_20250825",
    "anthropic.code_execution_20260120",
  ],
  "openai-compatible": [],
};

const PROVIDER_NAMES: Record<Provider, string> = { openai: "OpenAI", anthropic: "Anthropic", "openai-compatible": "an OpenAI-compatible server" };

/** The spec a catalog's behaviour carries, when it is one. */
export function providerToolOf(value: unknown): ProviderToolSpec | null {
  if (!value || typeof value !== "object") return null;
  const { id, args } = value as { id?: unknown; args?: unknown };
  if (typeof id !== "string" || !id.includes(".")) return null;
  return { id, args: args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {} };
}

/** The provider-defined tool for this provider, or the sentence on why the tool is withheld from it. */
export function providerTool(provider: Provider, name: string, spec: ProviderToolSpec): LanguageModelV4ProviderTool | string {
  if (RUN_BY_PROVIDER[provider].includes(spec.id)) return { type: "provider", id: spec.id as `${string}.${string}`, name, args: structuredClone(spec.args) };
  const owner = Object.entries(RUN_BY_PROVIDER).find(([, ids]) => ids.includes(spec.id))?.[0] as Provider | undefined;
  const model = `this agent's model is on ${PROVIDER_NAMES[provider]}`;
  const why = owner
    ? `${spec.id} is ${PROVIDER_NAMES[owner]}'s, and ${model}, which has no such tool`
    : `${spec.id} is not a tool a provider the studio knows runs on its own side, and ${model}`;
  return `${name} is a tool the model's provider runs (BUILT_IN), so it is withheld: ${why}.`;
}
