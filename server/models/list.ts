// The models a provider lists (R-conn-list): GET {base}/models with the key as a bearer token (OpenAI and any
// OpenAI-compatible server) or as x-api-key with anthropic-version (Anthropic), bounded in time and size. What goes
// wrong is one sentence a person can act on: the address unreachable, the key refused, no list at that address.
import { baseUrlOf, PROVIDER_LABELS, type Provider } from "./presets";

export const LIST_TIMEOUT_MS = 10_000;
const MAX_BODY = 4_000_000;

export type Target = { provider: Provider; baseUrl: string | null; /** The reference, for sentences; never the value. */ apiKey: string | null };

export type Listing =
  | { ok: true; models: string[]; ms: number }
  | { ok: false; kind: "unreachable" | "refused" | "no-list"; sentence: string; ms: number };

/** Why a fetch failed, in a few words from its cause's code: never a stack or a driver's text. */
export function networkCause(err: unknown): string {
  const cause = (err as { cause?: { code?: string } } | null)?.cause;
  const code = cause?.code ?? (err as { code?: string } | null)?.code;
  if ((err as Error | null)?.name === "TimeoutError") return "no answer in time";
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "no such host";
    case "ECONNRESET":
      return "the connection was reset";
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return "the connection timed out";
    case "CERT_HAS_EXPIRED":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "SELF_SIGNED_CERT_IN_CHAIN":
      return "its TLS certificate is not trusted";
    default:
      if (/redirect/i.test((cause as { message?: string } | undefined)?.message ?? "")) return "it answered with a redirect to another address";
      return code ? code.toLowerCase().replace(/_/g, " ") : "the request failed";
  }
}

const who = (t: Target, base: string) => `${t.provider === "openai-compatible" ? "The server" : PROVIDER_LABELS[t.provider]} at ${base}`;

function headers(t: Target, key: string | null): Record<string, string> {
  if (t.provider === "anthropic") return { "anthropic-version": "2023-06-01", ...(key ? { "x-api-key": key } : {}) };
  return key ? { authorization: `Bearer ${key}` } : {};
}

/** The ids in an OpenAI-style `{data: [{id}]}` list (Anthropic's has the same shape), sorted. */
function idsOf(body: unknown): string[] | null {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  const ids = data.flatMap((m) => (typeof (m as { id?: unknown })?.id === "string" ? [(m as { id: string }).id] : []));
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
}

/** The provider's models, with the key's value given here and nowhere else. */
export async function listModels(t: Target, key: string | null, timeoutMs = LIST_TIMEOUT_MS): Promise<Listing> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const base = baseUrlOf(t.provider, t.baseUrl);
  if (!base) return { ok: false, kind: "unreachable", sentence: "An OpenAI-compatible server needs its address, e.g. http://127.0.0.1:11434/v1.", ms: 0 };
  const url = `${base}/models${t.provider === "anthropic" ? "?limit=1000" : ""}`;
  let response: Response;
  try {
    response = await fetch(url, { headers: headers(t, key), signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
  } catch (err) {
    const cause = networkCause(err);
    const late = cause === "no answer in time" ? ` within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}` : "";
    return { ok: false, kind: "unreachable", sentence: `${who(t, base)} could not be reached${late} (${cause}); check the address and that the server is running.`, ms: ms() };
  }
  const text = (await response.text().catch(() => "")).slice(0, MAX_BODY);
  if (response.status === 401 || response.status === 403) {
    const keyWords = t.apiKey ? `the key ${t.apiKey}` : "a request without a key";
    return { ok: false, kind: "refused", sentence: `${who(t, base)} refused ${keyWords} (HTTP ${response.status}); check the secret's value in Settings → Secrets, or pick another key.`, ms: ms() };
  }
  if (!response.ok) {
    return { ok: false, kind: "no-list", sentence: `${who(t, base)} has no model list (HTTP ${response.status} for /models); check the address (an OpenAI-compatible server's usually ends in /v1).`, ms: ms() };
  }
  let ids: string[] | null = null;
  try {
    ids = idsOf(JSON.parse(text));
  } catch {
    ids = null;
  }
  if (!ids) return { ok: false, kind: "no-list", sentence: `${who(t, base)} answered /models with something that is not a model list; check the address.`, ms: ms() };
  return { ok: true, models: ids, ms: ms() };
}
