// A tree module with BUILT_IN = True names a tool its model's provider runs on its side (R-builtin-provider): the
// run hands it to the provider as an AI SDK provider-defined tool (`type: "provider"`), and nothing in the studio or
// the tool host ever runs it. Only tools the provider itself executes are taken: OpenAI's Responses tools and
// Anthropic's server tools. One the agent's provider does not have (a client-run provider tool such as a shell,
// another provider's, an OpenAI-compatible server, which has none) is withheld with a sentence (R-builtin-withheld).
// Edit when a provider, or a tool a provider runs, is added.
import type { LanguageModelV4ProviderTool } from "@ai-sdk/provider";
import type { Provider } from "@/server/agents/declaration";
import type { ModelView } from "@/server/agents/model-view";
import type { CatalogFile } from "@/server/host";

export type ProviderToolSpec = { id: string; args: Record<string, unknown> };

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

/**
 * The builder's view of what the model sees, for the agent's provider: a BUILT_IN tool the provider does not run is
 * left out, with its sentence as a problem of its entry, as a run would leave it (R-builtin-withheld).
 */
export function withBuiltIns(view: ModelView, entries: readonly string[], files: readonly CatalogFile[], provider: Provider | undefined): ModelView {
  if (!provider) return view;
  const withheld = new Map<string, { index: number; message: string }>();
  for (const file of files) {
    const index = entries.findIndex((entry) => entry.split("#")[0]!.trim() === `tools/${file.path}`);
    if (index === -1) continue;
    for (const tool of file.tools) {
      const spec = providerToolOf(tool.behaviour?.built_in);
      const handed = spec ? providerTool(provider, tool.name, spec) : null;
      if (typeof handed === "string") withheld.set(tool.name, { index, message: handed });
    }
  }
  if (withheld.size === 0) return view;
  return {
    tools: view.tools.filter((tool) => !withheld.has(tool.name)),
    problems: [...view.problems, ...withheld.values()].sort((a, b) => a.index - b.index),
  };
}
