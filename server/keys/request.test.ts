// requireKey on PGlite: the key found by its prefix and checked by its hash, and every refusal with its status, code
// and sentence (R-key-unknown, R-key-cookie, R-key-revoke, R-key-scope, R-key-rate), read from the row each time.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { apiKeys, audit, type KeyAgents, type KeyScope } from "@/db/schema";
import { forgetKeyRequests } from "./rate";
import { KeyRefused, mayUseAgent, recordKeyUse, requireKey, type KeyRefusalCode } from "./request";
import { hashOf, matchesHash, newKeyValue, prefixOf } from "./value";

const AGENT = "7a1f0c4e-0000-4000-8000-000000000001";
const OTHER_AGENT = "7a1f0c4e-0000-4000-8000-000000000002";

let dir: string;
let database: Database;
let made = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-keys-"));
  database = await openDatabase({ dataDir: dir });
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => forgetKeyRequests());

type KeyOptions = { scopes?: KeyScope[]; agents?: KeyAgents; expiresAt?: Date | null; revokedAt?: Date | null; ratePerMinute?: number };

async function key(options: KeyOptions = {}): Promise<{ value: string; id: string; name: string }> {
  const made_ = newKeyValue();
  const name = `key ${++made}`;
  const [row] = await database.db
    .insert(apiKeys)
    .values({
      name,
      prefix: made_.prefix,
      hash: made_.hash,
      agents: options.agents ?? "all",
      scopes: options.scopes ?? ["run", "read", "decide"],
      expiresAt: options.expiresAt ?? null,
      revokedAt: options.revokedAt ?? null,
      ratePerMinute: options.ratePerMinute ?? 60,
      createdBy: "user-ann",
    })
    .returning();
  return { value: made_.value, id: row!.id, name };
}

const request = (headers: Record<string, string>) => new Request("http://127.0.0.1/api/v1/runs", { headers });
const bearer = (value: string, more: Record<string, string> = {}) => request({ authorization: `Bearer ${value}`, ...more });

async function refusal(promise: Promise<unknown>): Promise<KeyRefused> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(KeyRefused);
  return error as KeyRefused;
}

describe("a key's value", () => {
  it("is qk_ and 43 base64url characters, kept as its SHA-256 and found by its first 11 characters", () => {
    const made_ = newKeyValue();
    expect(made_.value).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
    expect(made_.hash).toBe(createHash("sha256").update(made_.value).digest("hex"));
    expect(made_.prefix).toBe(made_.value.slice(0, 11));
    expect(prefixOf(made_.value)).toBe(made_.prefix);
    expect(made_.hash).not.toContain(made_.value.slice(3));
  });

  it("matches only its own hash, and a stored hash of another length matches nothing", () => {
    const made_ = newKeyValue();
    expect(matchesHash(made_.value, made_.hash)).toBe(true);
    expect(matchesHash(newKeyValue().value, made_.hash)).toBe(false);
    expect(matchesHash(made_.value, made_.hash.slice(0, 32))).toBe(false);
    expect(hashOf("a")).not.toBe(hashOf("b"));
  });
});

describe("requireKey", () => {
  it("accepts a live key with the scope and gives who the runtime records, the key by name", async () => {
    const made_ = await key({ agents: [AGENT], scopes: ["run"] });
    const principal = await requireKey(database.db, bearer(made_.value), "run", AGENT);
    expect(principal).toEqual({
      id: made_.id,
      name: made_.name,
      agents: [AGENT],
      scopes: ["run"],
      waitLimitMs: 300_000,
      who: { id: `key:${made_.id}`, name: `API key ${made_.name}` },
    });
    expect(mayUseAgent(principal, AGENT)).toBe(true);
    expect(mayUseAgent(principal, OTHER_AGENT)).toBe(false);
    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, made_.id));
    expect(row!.lastUsedAt).toBeInstanceOf(Date);
  });

  it("takes the scheme in any case", async () => {
    const made_ = await key();
    await expect(requireKey(database.db, request({ authorization: `bearer  ${made_.value}` }), "read")).resolves.toMatchObject({ id: made_.id });
  });

  // The refusals: what each request was, and the status, code and sentence it gets.
  const cases: Array<{ rule: string; status: number; code: KeyRefusalCode; sentence: RegExp; send: () => Promise<Request>; scope?: KeyScope; agentId?: string }> = [
    { rule: "no Authorization header", status: 401, code: "NO_KEY", sentence: /^This request has no API key: send one as the header "Authorization: Bearer qk_…"/, send: async () => request({}) },
    { rule: "another scheme", status: 401, code: "NO_KEY", sentence: /is not a bearer key/, send: async () => request({ authorization: `Basic ${(await key()).value}` }) },
    { rule: "a value not shaped as a key", status: 401, code: "BAD_KEY", sentence: /^This API key is not one the studio knows/, send: async () => bearer("sk-not-ours") },
    { rule: "an unknown prefix", status: 401, code: "BAD_KEY", sentence: /^This API key is not one the studio knows/, send: async () => bearer(newKeyValue().value) },
    {
      rule: "a known prefix with the rest wrong",
      status: 401,
      code: "BAD_KEY",
      sentence: /^This API key is not one the studio knows: check that it was copied whole, or ask an admin for a key in Settings → API keys\.$/,
      send: async () => {
        const { value } = await key();
        return bearer(value.slice(0, 11) + newKeyValue().value.slice(11));
      },
    },
    { rule: "a revoked key", status: 401, code: "KEY_REVOKED", sentence: /^This API key "key \d+" was revoked on \d{4}-\d\d-\d\d; ask an admin/, send: async () => bearer((await key({ revokedAt: new Date() })).value) },
    { rule: "an expired key", status: 401, code: "KEY_EXPIRED", sentence: /^This API key "key \d+" expired on \d{4}-\d\d-\d\d/, send: async () => bearer((await key({ expiresAt: new Date(Date.now() - 1000) })).value) },
    {
      rule: "a session cookie beside the key",
      status: 401,
      code: "SESSION_COOKIE",
      sentence: /^This request carries a studio session cookie, and a request with an API key must carry none/,
      send: async () => bearer((await key()).value, { cookie: "theme=dark; quiver.session_token=abc" }),
    },
    { rule: "a key without the scope", status: 403, code: "KEY_SCOPE", sentence: /^This API key may not decide approvals or answer questions;/, scope: "decide", send: async () => bearer((await key({ scopes: ["run", "read"] })).value) },
    {
      rule: "a key for other agents",
      status: 403,
      code: "KEY_AGENT",
      sentence: /^This API key may not use this agent;/,
      agentId: OTHER_AGENT,
      send: async () => bearer((await key({ agents: [AGENT] })).value),
    },
  ];

  it.each(cases)("refuses $rule with $status $code", async ({ status, code, sentence, send, scope, agentId }) => {
    const refused = await refusal(requireKey(database.db, await send(), scope ?? "run", agentId));
    expect({ status: refused.status, code: refused.code }).toEqual({ status, code });
    expect(refused.message).toMatch(sentence);
    expect(refused.message).toMatch(/\.$/);
  });

  it("says the same for an unknown prefix and a known one with a wrong value (R-key-unknown)", async () => {
    const { value } = await key();
    const wrong = await refusal(requireKey(database.db, bearer(value.slice(0, 11) + newKeyValue().value.slice(11)), "run"));
    const unknown = await refusal(requireKey(database.db, bearer(newKeyValue().value), "run"));
    expect(wrong.message).toBe(unknown.message);
    expect(wrong.code).toBe(unknown.code);
  });

  it("refuses a key revoked since its last request on the very next one (R-key-revoke)", async () => {
    const made_ = await key();
    await requireKey(database.db, bearer(made_.value), "run");
    await database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, made_.id));
    expect((await refusal(requireKey(database.db, bearer(made_.value), "run"))).code).toBe("KEY_REVOKED");
  });

  it("answers 429 with the seconds to wait once a key has made its requests for the minute (R-key-rate)", async () => {
    const made_ = await key({ ratePerMinute: 3 });
    const other = await key({ ratePerMinute: 3 });
    for (let i = 0; i < 3; i++) await requireKey(database.db, bearer(made_.value), "run");
    const refused = await refusal(requireKey(database.db, bearer(made_.value), "run"));
    expect(refused.status).toBe(429);
    expect(refused.code).toBe("KEY_RATE_LIMITED");
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(refused.message).toMatch(/^This API key has made its 3 requests for this minute; try again in \d+ seconds?\.$/);
    // The limit is the key's own: another key is not held back.
    await expect(requireKey(database.db, bearer(other.value), "run")).resolves.toMatchObject({ id: other.id });
  });
});

describe("recordKeyUse", () => {
  it("writes one audit row naming the key, the agent and the run (R-key-audit)", async () => {
    const made_ = await key();
    const principal = await requireKey(database.db, bearer(made_.value), "run", AGENT);
    const runId = "7a1f0c4e-0000-4000-8000-0000000000aa";
    await recordKeyUse(database.db, principal, { action: "api.run_started", agentId: AGENT, runId });
    const rows = await database.db.select().from(audit).where(eq(audit.actor, `key:${made_.id}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "api.run_started", target: runId, detail: { key: made_.name, keyId: made_.id, agentId: AGENT, runId } });
  });
});
