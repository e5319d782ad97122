// A model through the AI SDK's providers (OpenAI, Anthropic, any OpenAI-compatible server by base URL), for a run
// and for a connection's Test alike, called at the provider level (LanguageModelV4.doStream) so the loop sees each
// tool call's name and arguments exactly as the model wrote them: repair and parse are the runtime's job
// (R-loop-name-repair, R-loop-malformed-args). The API key is a secret picked by name and resolved only here; a
// provider that cannot be reached, refuses the key or rate-limits is told in one sentence. Edit when a provider is added.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { APICallError } from "ai";
import type { InlineModel } from "@/server/agents/declaration";
import { SECRET_REFERENCE } from "@/server/secrets/names";
import type { SegmentSecrets } from "@/server/calls";

/** A model ready to open: the provider, address, key reference and options, and the connection it came from, if any. */
export type ModelSpec = InlineModel & { connection?: string | null };

/** A problem with the model that ends the run, as the sentence the run records. */
export class ModelProblem extends Error {}

const PROVIDER_NAMES: Record<InlineModel["provider"], string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  "openai-compatible": "The OpenAI-compatible server",
};

/** Where a person changes the model's address or key: the agent's Model section, or its connection. */
export function whereSet(spec: Pick<ModelSpec, "connection">): string {
  return spec.connection ? `the connection ${spec.connection} in Settings → Models` : "the agent's Model section";
}

/**
 * The agent's options as the provider call takes them (R-conn-options); one left out is not sent, so the provider's
 * own default applies. The reasoning effort goes through the AI SDK's one `reasoning` option, which each provider maps
 * to its own setting (OpenAI's reasoning effort, Anthropic's thinking, the `reasoning_effort` field of a compatible server).
 */
export function callOptions(spec: ModelSpec): Pick<LanguageModelV4CallOptions, "temperature" | "maxOutputTokens" | "reasoning"> {
  return {
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
    ...(spec.max_tokens !== undefined ? { maxOutputTokens: spec.max_tokens } : {}),
    ...(spec.reasoning_effort !== undefined ? { reasoning: spec.reasoning_effort } : {}),
  };
}

/** The key's value for this model, or null for a server that takes none; an unknown secret is a ModelProblem. */
export async function modelKey(spec: ModelSpec, secrets: Pick<SegmentSecrets, "values">): Promise<string | null> {
  if (!spec.api_key) {
    if (spec.provider === "openai-compatible") return null;
    throw new ModelProblem(`${PROVIDER_NAMES[spec.provider]} needs an API key: pick the secret that holds it in ${whereSet(spec)}.`);
  }
  const name = SECRET_REFERENCE.exec(spec.api_key)?.[1];
  if (!name) throw new ModelProblem(`The model's API key must be a secret picked by name (\${NAME}); pick one in ${whereSet(spec)}.`);
  try {
    const values = await secrets.values([name], `model ${spec.model}`);
    return values.get(name)!;
  } catch (err) {
    throw new ModelProblem((err as Error).message);
  }
}

/** The provider's language model; the key is given here and nowhere else (never read from the environment). */
export function openModel(spec: ModelSpec, apiKey: string | null): LanguageModelV4 {
  const baseURL = spec.base_url?.replace(/\/+$/, "");
  switch (spec.provider) {
    case "openai":
      return createOpenAI({ apiKey: apiKey ?? "", baseURL })(spec.model) as LanguageModelV4;
    case "anthropic":
      return createAnthropic({ apiKey: apiKey ?? "", baseURL })(spec.model) as LanguageModelV4;
    case "openai-compatible":
      if (!baseURL) throw new ModelProblem("An OpenAI-compatible model needs the server's address (base_url), e.g. http://127.0.0.1:11434/v1.");
      return createOpenAICompatible({ name: "quiver", baseURL, apiKey: apiKey ?? undefined, includeUsage: true })(spec.model) as LanguageModelV4;
  }
}

function said(error: APICallError, key: string | null): string {
  let body = "";
  try {
    const parsed = JSON.parse(error.responseBody ?? "") as { error?: { message?: string } | string; message?: string };
    body = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message ?? "");
  } catch {
    body = error.responseBody ?? "";
  }
  // A server may echo the key it refused; the sentence goes to the run's events and the browser (R-conn-key-masked).
  if (key && key.length >= 4) body = body.split(key).join("[the key]");
  body = body.replace(/\s+/g, " ").trim().slice(0, 200);
  return body ? `: ${body.replace(/\.$/, "")}` : "";
}

/** Whether asking again may help: a rate limit, an overloaded or unreachable provider. */
export function isRetryable(error: unknown): boolean {
  return APICallError.isInstance(error) && error.isRetryable;
}

/** Why the model call failed, in one sentence that says what to do. */
export function modelFailure(error: unknown, spec: ModelSpec, key: string | null = null): string {
  const who = PROVIDER_NAMES[spec.provider];
  if (error instanceof ModelProblem) return error.message;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      const cause = error.cause instanceof Error ? error.cause.message : error.message.replace(/^Cannot connect to API: /, "");
      const where = spec.base_url ? ` at ${spec.base_url}` : "";
      return `${who}${where} could not be reached (${cause}); check its address and that it is running, then send the message again.`;
    }
    if (status === 401 || status === 403) {
      return `${who} refused the API key (HTTP ${status}${said(error, key)}); check the secret ${spec.api_key ?? "(none picked)"} in ${whereSet(spec)}.`;
    }
    if (status === 429) return `${who} is rate-limiting this key (HTTP 429${said(error, key)}); wait a moment and send the message again, or use a key with a higher limit.`;
    if (status === 404) return `${who} does not know the model ${spec.model} (HTTP 404${said(error, key)}); check the model's name in ${spec.connection ? "the agent's Model section, or the connection's models in Settings → Models" : "the agent's Model section"}.`;
    return `${who} answered HTTP ${status}${said(error, key)}; try again, and check the model's settings if it keeps happening.`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `The model call failed: ${message.replace(/\s+/g, " ").slice(0, 300)}.`;
}
