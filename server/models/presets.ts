// The providers a model connection may be on and the usual addresses of the servers builders run (R-conn-presets):
// what the connection dialog offers, and what the server falls back to for a provider's own address. Pure, for the
// browser and the server alike; edit when a provider or a common server is added.
import { CONNECTION_NAME, CONNECTION_NAME_RULE, type Provider } from "@/server/agents/declaration";

export { CONNECTION_NAME, CONNECTION_NAME_RULE, MODEL_OPTIONS, PROVIDERS, REASONING_EFFORTS } from "@/server/agents/declaration";
export type { Provider, ReasoningEffort } from "@/server/agents/declaration";

export const PROVIDER_LABELS: Record<Provider, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  "openai-compatible": "OpenAI-compatible",
};

/** The address used when a connection gives none; an OpenAI-compatible server has no default and must give one. */
export const DEFAULT_BASE_URLS: Record<Provider, string | null> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  "openai-compatible": null,
};

export type Preset = {
  id: string;
  label: string;
  provider: Provider;
  /** Null: the provider's own address. */
  baseUrl: string | null;
  /** Whether the server wants a key: cloud services do, a server on this machine usually does not. */
  needsKey: boolean;
  /** A name the dialog suggests for the connection. */
  name: string;
};

export const PRESETS: readonly Preset[] = [
  { id: "openai", label: "OpenAI", provider: "openai", baseUrl: null, needsKey: true, name: "openai" },
  { id: "anthropic", label: "Anthropic", provider: "anthropic", baseUrl: null, needsKey: true, name: "anthropic" },
  { id: "ollama", label: "Ollama", provider: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1", needsKey: false, name: "local-ollama" },
  { id: "vllm", label: "vLLM", provider: "openai-compatible", baseUrl: "http://127.0.0.1:8000/v1", needsKey: false, name: "local-vllm" },
  { id: "lm-studio", label: "LM Studio", provider: "openai-compatible", baseUrl: "http://127.0.0.1:1234/v1", needsKey: false, name: "local-lm-studio" },
  { id: "llama-cpp", label: "llama.cpp", provider: "openai-compatible", baseUrl: "http://127.0.0.1:8080/v1", needsKey: false, name: "local-llama-cpp" },
  { id: "openrouter", label: "OpenRouter", provider: "openai-compatible", baseUrl: "https://openrouter.ai/api/v1", needsKey: true, name: "openrouter" },
];

/** The address a connection's requests go to, without a trailing slash. */
export function baseUrlOf(provider: Provider, baseUrl: string | null | undefined): string | null {
  const url = baseUrl?.trim() || DEFAULT_BASE_URLS[provider];
  return url ? url.replace(/\/+$/, "") : null;
}

/** The sentence that says why `name` cannot name a connection, or null when it can (R-conn-name). */
export function connectionNameProblem(name: string): string | null {
  if (name.length === 0) return "Give the connection a name, like local-ollama.";
  if (name.length > 63) return `A connection's name has at most 63 characters; this one has ${name.length}.`;
  if (!CONNECTION_NAME.test(name)) {
    const suggestion = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 63) || "local-ollama";
    return `“${name}” is not a connection name: use ${CONNECTION_NAME_RULE.replace(/, e\.g\. .*$/, "")} (for example ${suggestion}).`;
  }
  return null;
}
