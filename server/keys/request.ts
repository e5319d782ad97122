// What a route behind an API key asks first: which key this request carries, and whether it may do this. Every
// check reads the key's row, so a revoke or an expiry holds from the next request in every process (R-key-revoke).
// Edit when a key gains a right or a limit; the refusals' sentences are the table in request.test.ts.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, type KeyAgents, type KeyScope } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { carriesSession } from "@/server/http/origin";
import { takeKeyRequest } from "./rate";
import { hashOf, looksLikeKey, matchesHash, prefixOf } from "./value";

export type { KeyScope } from "@/db/schema";

export type ApiKeyPrincipal = {
  id: string;
  name: string;
  agents: KeyAgents;
  scopes: KeyScope[];
  /** How long a request may stay open while its run waits for a person. */
  waitLimitMs: number;
  /** Who the runtime records as having started a run or decided a call: the key itself, by name. */
  who: { id: string; name: string };
};

export type KeyRefusalCode =
  | "NO_KEY"
  | "BAD_KEY"
  | "SESSION_COOKIE"
  | "KEY_REVOKED"
  | "KEY_EXPIRED"
  | "KEY_RATE_LIMITED"
  | "KEY_SCOPE"
  | "KEY_AGENT";

/** Marks a KeyRefused across bundles, whose copies of this class differ (as DomainError does). */
const BRAND = Symbol.for("quiver.KeyRefused");

/** Why a request's key may not do what it asked: 401 (no key, an unknown, revoked or expired one, a cookie), 403, 429. */
export class KeyRefused extends Error {
  readonly [BRAND] = true;

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  constructor(
    readonly status: 401 | 403 | 429,
    readonly code: KeyRefusalCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

const FROM_SETTINGS = "ask an admin for a key in Settings → API keys";

/** What each scope lets a key do, as the end of "This API key may not …". */
export const SCOPE_WORDS: Record<KeyScope, string> = {
  run: "start or continue runs",
  read: "read runs",
  decide: "decide approvals or answer questions",
  metrics: "read the studio's metrics",
};

/** One sentence for a malformed key, an unknown prefix and a wrong value alike, so none tells which it was (R-key-unknown). */
const UNKNOWN = `This API key is not one the studio knows: check that it was copied whole, or ${FROM_SETTINGS}.`;

/** Stands in for a stored hash when no key has the prefix, so an unknown key costs the same comparison. */
const NO_HASH = hashOf("no key has this prefix");

function bearerOf(headers: Headers): string {
  const header = headers.get("authorization");
  if (header === null) {
    throw new KeyRefused(401, "NO_KEY", `This request has no API key: send one as the header "Authorization: Bearer qk_…" (${FROM_SETTINGS}).`);
  }
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new KeyRefused(401, "NO_KEY", `This request's Authorization header is not a bearer key: send it as "Authorization: Bearer qk_…".`);
  }
  return match[1]!;
}

export function mayUseAgent(key: ApiKeyPrincipal, agentId: string): boolean {
  return key.agents === "all" || key.agents.includes(agentId);
}

const day = (at: Date) => at.toISOString().slice(0, 10);

/** The key row behind `value`, checked live and unexpired; every refusal on the way is a KeyRefused. */
async function liveKey(db: Db, value: string, now: Date) {
  if (!looksLikeKey(value)) throw new KeyRefused(401, "BAD_KEY", UNKNOWN);
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.prefix, prefixOf(value)));
  if (!matchesHash(value, row?.hash ?? NO_HASH) || !row) throw new KeyRefused(401, "BAD_KEY", UNKNOWN);
  // Only the key's holder gets this far, so saying why it stopped working gives nothing away.
  if (row.revokedAt) throw new KeyRefused(401, "KEY_REVOKED", `This API key "${row.name}" was revoked on ${day(row.revokedAt)}; ${FROM_SETTINGS}.`);
  if (row.expiresAt && row.expiresAt <= now) {
    throw new KeyRefused(401, "KEY_EXPIRED", `This API key "${row.name}" expired on ${day(row.expiresAt)}; ${FROM_SETTINGS}.`);
  }
  return row;
}

/** Last used is kept to ten seconds, so a busy key does not rewrite its row on every request. */
const TOUCH_MS = 10_000;

/**
 * The bearer key of `request`, refused unless live, unexpired, within its rate limit, and holding `scope` (any one
 * of them, when several) for `agentId` when given (R-key-scope). A request that carries a session cookie is never a
 * key request (R-key-cookie).
 */
export async function requireKey(db: Db, request: Pick<Request, "headers">, scope: KeyScope | readonly KeyScope[], agentId?: string): Promise<ApiKeyPrincipal> {
  if (carriesSession(request.headers)) {
    throw new KeyRefused(401, "SESSION_COOKIE", "This request carries a studio session cookie, and a request with an API key must carry none: send it without cookies.");
  }
  const now = new Date();
  const row = await liveKey(db, bearerOf(request.headers), now);
  const wait = await takeKeyRequest(row.id, row.ratePerMinute);
  if (wait !== null) {
    const seconds = `${wait} second${wait === 1 ? "" : "s"}`;
    throw new KeyRefused(429, "KEY_RATE_LIMITED", `This API key has made its ${row.ratePerMinute} requests for this minute; try again in ${seconds}.`, wait);
  }
  const key: ApiKeyPrincipal = {
    id: row.id,
    name: row.name,
    agents: row.agents,
    scopes: row.scopes,
    waitLimitMs: row.waitLimitS * 1000,
    who: { id: `key:${row.id}`, name: `API key ${row.name}` },
  };
  const wanted: readonly KeyScope[] = typeof scope === "string" ? [scope] : scope;
  if (!wanted.some((one) => key.scopes.includes(one))) {
    throw new KeyRefused(403, "KEY_SCOPE", `This API key may not ${wanted.map((one) => SCOPE_WORDS[one]).join(" or ")}; ${FROM_SETTINGS} that may.`);
  }
  if (agentId !== undefined && !mayUseAgent(key, agentId)) {
    throw new KeyRefused(403, "KEY_AGENT", `This API key may not use this agent; ${FROM_SETTINGS} that names it.`);
  }
  // The row just read says whether the update would change anything; skipping it spares a busy key a statement.
  const stale = new Date(now.getTime() - TOUCH_MS);
  if (!row.lastUsedAt || row.lastUsedAt < stale) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))));
  }
  return key;
}

/** One audit row per use of a key (R-key-audit): the key by name, the agent and the run it touched. */
export async function recordKeyUse(db: Db, key: ApiKeyPrincipal, use: { action: string; agentId?: string; runId?: string }): Promise<void> {
  await recordAudit(db, {
    actor: key.who.id,
    action: use.action,
    target: use.runId ?? use.agentId ?? key.name,
    detail: { key: key.name, keyId: key.id, agentId: use.agentId ?? null, runId: use.runId ?? null },
  });
}
