// A connection's Test (R-conn-test): its key read, the provider's model list, then a one-token answer through the
// same AI SDK provider runs use, on the default model or the first listed. The answer is one sentence saying what
// worked or what is wrong (address unreachable, key refused, model missing) and how long it took, with each step.
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { APICallError } from "ai";
import type { Db } from "@/db/client";
import { connectionKey } from "./key";
import { listModels, networkCause, LIST_TIMEOUT_MS } from "./list";
import { openModel, type ModelSpec } from "./open";
import { baseUrlOf, PROVIDER_LABELS } from "./presets";
import type { ConnectionFields } from "./store";

export type Step = { what: string; ok: boolean; sentence: string; ms: number };
export type TestAnswer = { ok: boolean; sentence: string; ms: number; models: string[]; steps: Step[] };
export type Tested = Pick<ConnectionFields, "provider" | "baseUrl" | "apiKey" | "defaultModel"> & { models?: string[] | null; name?: string };

/** OpenAI's Responses API takes no fewer than 16 output tokens; the others take one. */
const fewestTokens = (spec: Pick<ModelSpec, "provider">) => (spec.provider === "openai" ? 16 : 1);

const PROMPT: LanguageModelV4CallOptions["prompt"] = [{ role: "user", content: [{ type: "text", text: "Reply with OK." }] }];

function answerProblem(err: unknown, model: string, base: string, apiKey: string | null): string {
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    if (status === undefined) return `The server at ${base} could not be reached for an answer (${networkCause(err.cause ?? err)}); check the address and that it is running.`;
    if (status === 401 || status === 403) return `The server at ${base} refused ${apiKey ? `the key ${apiKey}` : "a request without a key"} for an answer (HTTP ${status}); check the secret's value in Settings → Secrets.`;
    if (status === 404) return `The server at ${base} has no model ${model} (HTTP 404); check its name, or load it on the server.`;
    return `The server at ${base} answered HTTP ${status} when ${model} was asked for one token; check the model's name and the server's log.`;
  }
  if ((err as Error | null)?.name === "TimeoutError") return `${model} did not answer within ${LIST_TIMEOUT_MS / 1000} s; check that the server has the model loaded.`;
  return `${model} could not be asked for an answer (${networkCause(err)}); check the model's name and the server's log.`;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

/** Tests a connection, saved or a draft; `actor` is who the key's use is recorded for. */
export async function testConnection(db: Db, actor: string, c: Tested, timeoutMs = LIST_TIMEOUT_MS): Promise<TestAnswer> {
  const started = performance.now();
  const steps: Step[] = [];
  const base = baseUrlOf(c.provider, c.baseUrl) ?? "(no address)";
  const end = (models: string[]): TestAnswer => {
    const ms = Math.round(performance.now() - started);
    const failed = steps.find((s) => !s.ok);
    if (failed) return { ok: false, sentence: `${failed.sentence.replace(/\.$/, "")} (after ${ms} ms).`, ms, models, steps };
    const answered = steps.at(-1)!.sentence.replace(/\.$/, "");
    return { ok: true, sentence: `Connected in ${ms} ms: ${base} lists ${models.length} model${models.length === 1 ? "" : "s"}, and ${answered.charAt(0).toLowerCase()}${answered.slice(1)}.`, ms, models, steps };
  };

  const key = await timed(() => connectionKey(db, c.apiKey, { actor, what: `test of the model connection ${c.name ?? "(not saved)"}` }));
  if (c.apiKey) steps.push({ what: "key", ok: key.value.ok, sentence: key.value.ok ? `The key ${c.apiKey} was read.` : key.value.sentence, ms: key.ms });
  if (!key.value.ok) return end([]);
  const value = key.value.key;

  const listed = await timed(() => listModels(c, value, timeoutMs));
  const listing = listed.value;
  steps.push({
    what: "list",
    ok: listing.ok,
    sentence: listing.ok ? `${PROVIDER_LABELS[c.provider]} at ${base} lists ${listing.models.length} model${listing.models.length === 1 ? "" : "s"}.` : listing.sentence,
    ms: listed.ms,
  });
  // Unreachable or refused, an answer would fail the same way; a server with no list may still answer.
  if (!listing.ok && listing.kind !== "no-list") return end([]);
  const models = listing.ok ? listing.models : [];

  const model = c.defaultModel ?? c.models?.[0] ?? models[0];
  if (!model) {
    steps.push({ what: "model", ok: false, sentence: `The server at ${base} lists no models; load or pull one there, or name a default model, then test again.`, ms: 0 });
    return end(models);
  }
  if (listing.ok && !models.includes(model)) {
    steps.push({ what: "model", ok: false, sentence: `The server at ${base} does not list the model ${model}; pick one it lists${models.length ? ` (${models.slice(0, 5).join(", ")}${models.length > 5 ? "…" : ""})` : ""}, or load it there.`, ms: 0 });
    return end(models);
  }

  const spec: ModelSpec = { provider: c.provider, model, ...(c.baseUrl ? { base_url: c.baseUrl } : {}), ...(c.apiKey ? { api_key: c.apiKey } : {}) };
  const answer = await timed(async () => {
    try {
      await openModel(spec, value).doGenerate({ prompt: PROMPT, maxOutputTokens: fewestTokens(spec), abortSignal: AbortSignal.timeout(timeoutMs) });
      return null;
    } catch (err) {
      return answerProblem(err, model, base, c.apiKey);
    }
  });
  steps.push({ what: "answer", ok: answer.value === null, sentence: answer.value ?? `${model} answered in ${answer.ms} ms.`, ms: answer.ms });
  return end(models);
}
