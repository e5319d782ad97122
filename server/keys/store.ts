// Settings → API keys: make, list and revoke keys (R-key-create). A key's value leaves this module once, in what
// createKey returns; no other function here returns it or its hash.
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents, apiKeys, keyScopes, user, type KeyAgents, type KeyScope } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import { DEFAULT_RATE_PER_MINUTE } from "./rate";
import { newKeyValue } from "./value";

export const KEY_NAME_MAX = 60;
export const DEFAULT_WAIT_LIMIT_S = 300;
export const WAIT_LIMIT_MAX_S = 3600;
export const RATE_MAX = 100_000;

export type NewKey = {
  name: string;
  agents: KeyAgents;
  scopes: KeyScope[];
  waitLimitS?: number;
  ratePerMinute?: number;
  /** An ISO 8601 time, or null for a key that never expires. */
  expiresAt?: string | null;
};

/** What anyone may know about a key: everything but its value and hash. */
export type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  agents: KeyAgents;
  /** The names of the listed agents that still exist, in the order listed. */
  agentNames: string[];
  scopes: KeyScope[];
  waitLimitS: number;
  ratePerMinute: number;
  expiresAt: Date | null;
  createdBy: string;
  createdByName: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export type Problem = { path: string; message: string };

const columns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  agents: apiKeys.agents,
  scopes: apiKeys.scopes,
  waitLimitS: apiKeys.waitLimitS,
  ratePerMinute: apiKeys.ratePerMinute,
  expiresAt: apiKeys.expiresAt,
  createdBy: apiKeys.createdBy,
  createdByName: user.name,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

function invalidKey(problems: Problem[]): DomainError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
  return new DomainError("BAD_REQUEST", "INVALID_API_KEY", `The key was not made: ${first.message}${more}`, { problems });
}

async function agentNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: agents.id, name: agents.name }).from(agents).where(inArray(agents.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

const nameTaken = (name: string): Problem => ({
  path: "name",
  message: `A key named “${name}” exists already (names are unique, case aside); pick another name.`,
});

function uniqueViolation(err: unknown): string | null {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if ((e as { code?: string }).code === "23505") return (e as { constraint?: string }).constraint ?? "";
  }
  return null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every fault of a new key, each at its field, so the dialog can show them all at once. */
async function problemsOf(db: Db, input: NewKey, now: Date): Promise<Problem[]> {
  const problems: Problem[] = [];
  const name = input.name.trim();
  if (name.length === 0) problems.push({ path: "name", message: "Give the key a name that says who uses it, like ci-bot or open-webui." });
  else if (name.length > KEY_NAME_MAX) problems.push({ path: "name", message: `A key's name has at most ${KEY_NAME_MAX} characters; this one has ${name.length}.` });
  else if (/[\p{Cc}\p{Cf}]/u.test(name)) problems.push({ path: "name", message: "A key's name holds no control characters; type it again in plain text." });
  else {
    const [taken] = await db.select({ id: apiKeys.id }).from(apiKeys).where(sql`lower(${apiKeys.name}) = lower(${name})`);
    if (taken) problems.push(nameTaken(name));
  }
  const scopes = new Set(input.scopes);
  const metricsOnly = scopes.has("metrics");
  if (metricsOnly && scopes.size > 1) {
    problems.push({ path: "scopes", message: "A metrics key reads the studio's metrics and nothing else (R-metrics-key); untick the other scopes, or make a second key for them." });
  }
  if (input.agents !== "all" && !metricsOnly) {
    if (input.agents.length === 0) problems.push({ path: "agents", message: "Pick at least one agent the key may use, or let it use all agents." });
    const known = await agentNames(db, input.agents.filter((id) => UUID.test(id)));
    const missing = input.agents.filter((id) => !known.has(id));
    if (missing.length > 0) {
      problems.push({ path: "agents", message: `${missing.length === 1 ? "One agent picked no longer exists" : `${missing.length} agents picked no longer exist`}; pick again from the list.` });
    }
  }
  if (scopes.size === 0) problems.push({ path: "scopes", message: "Tick at least one thing the key may do: run agents, read runs, decide approvals or read metrics." });
  const wait = input.waitLimitS ?? DEFAULT_WAIT_LIMIT_S;
  if (!Number.isInteger(wait) || wait < 1 || wait > WAIT_LIMIT_MAX_S) {
    problems.push({ path: "waitLimitS", message: `The wait limit is a whole number of seconds from 1 to ${WAIT_LIMIT_MAX_S} (an hour); 300 is five minutes.` });
  }
  const rate = input.ratePerMinute ?? DEFAULT_RATE_PER_MINUTE;
  if (!Number.isInteger(rate) || rate < 1 || rate > RATE_MAX) {
    problems.push({ path: "ratePerMinute", message: `Requests a minute is a whole number from 1 to ${RATE_MAX.toLocaleString("en")}.` });
  }
  if (input.expiresAt) {
    const at = new Date(input.expiresAt);
    if (Number.isNaN(at.getTime())) problems.push({ path: "expiresAt", message: "The expiry is not a date; pick one, or let the key never expire." });
    else if (at <= now) problems.push({ path: "expiresAt", message: "The expiry is in the past; pick a later date, or let the key never expire." });
  }
  return problems;
}

/** A new key and its value, which is shown this once and never again (R-key-hash). */
export async function createKey(db: Db, actor: string, input: NewKey): Promise<{ key: KeyRow; value: string }> {
  const now = new Date();
  const problems = await problemsOf(db, input, now);
  if (problems.length > 0) throw invalidKey(problems);
  // A metrics key reaches no agent, whatever the form sent: no route that takes an agent can be opened with it.
  const agentList: KeyAgents = input.scopes.includes("metrics") ? [] : input.agents === "all" ? "all" : [...new Set(input.agents)];
  const name = input.name.trim();
  let shown = "";
  let inserted: { id: string; prefix: string } | undefined;
  // Two keys sharing a prefix are a 1 in 2^48 chance: the second is simply drawn again.
  for (let attempt = 0; !inserted; attempt++) {
    const value = newKeyValue();
    try {
      const [row] = await db
        .insert(apiKeys)
        .values({
          name,
          prefix: value.prefix,
          hash: value.hash,
          agents: agentList,
          scopes: keyScopes.filter((scope) => input.scopes.includes(scope)),
          waitLimitS: input.waitLimitS ?? DEFAULT_WAIT_LIMIT_S,
          ratePerMinute: input.ratePerMinute ?? DEFAULT_RATE_PER_MINUTE,
          expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
          createdBy: actor,
        })
        .returning({ id: apiKeys.id });
      inserted = { id: row!.id, prefix: value.prefix };
      shown = value.value;
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint === null || attempt >= 2) throw err;
      // Another admin took the name meanwhile.
      if (constraint !== "api_keys_prefix_idx") throw invalidKey([nameTaken(name)]);
    }
  }
  await recordAudit(db, {
    actor,
    action: "key.created",
    target: name,
    detail: { keyId: inserted.id, prefix: inserted.prefix, agents: agentList, scopes: input.scopes, expiresAt: input.expiresAt ?? null },
  });
  return { key: await keyRow(db, inserted.id), value: shown };
}

async function withAgentNames(db: Db, rows: Array<Omit<KeyRow, "agentNames">>): Promise<KeyRow[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.agents === "all" ? [] : row.agents)))];
  const names = await agentNames(db, ids);
  return rows.map((row) => ({
    ...row,
    agentNames: row.agents === "all" ? [] : row.agents.flatMap((id) => (names.has(id) ? [names.get(id)!] : [])),
  }));
}

async function keyRow(db: Db, id: string): Promise<KeyRow> {
  const rows = await db.select(columns).from(apiKeys).leftJoin(user, eq(user.id, apiKeys.createdBy)).where(eq(apiKeys.id, id));
  if (rows.length === 0) throw new DomainError("NOT_FOUND", "NO_SUCH_KEY", "There is no such API key; it may have been deleted meanwhile.", { id });
  return (await withAgentNames(db, rows))[0]!;
}

/** Every key, live ones first, each by name. */
export async function listKeys(db: Db): Promise<KeyRow[]> {
  const rows = await db.select(columns).from(apiKeys).leftJoin(user, eq(user.id, apiKeys.createdBy)).orderBy(asc(apiKeys.name));
  const listed = await withAgentNames(db, rows);
  return [...listed.filter((k) => !k.revokedAt), ...listed.filter((k) => k.revokedAt)];
}

/** Revokes a key from its next request on, in every process (R-key-revoke); revoking a revoked key changes nothing. */
export async function revokeKey(db: Db, actor: string, id: string): Promise<KeyRow> {
  const now = new Date();
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: now, revokedBy: actor })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ name: apiKeys.name });
  const row = await keyRow(db, id);
  if (revoked) await recordAudit(db, { actor, action: "key.revoked", target: revoked.name, detail: { keyId: id } });
  return row;
}
