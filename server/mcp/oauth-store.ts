// Where an MCP server's sign-in is kept (R-mcp-oauth-tokens, R-mcp-oauth-state): its grant (tokens, the client the
// studio registered, the servers' metadata) and the Connects under way. Every token, client secret and verifier is
// sealed like a secret's value before it is written; nothing here returns one to a caller above the MCP layer.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, lt } from "drizzle-orm";
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";
import type { Db } from "@/db/client";
import { mcpOauthGrants, mcpOauthPending, user } from "@/db/schema";
import { openGrant, sealGrant } from "@/server/secrets/grants";
import { secretsKey } from "@/server/secrets/crypto";
import type { McpServerRow } from "./registry";

/** How long a Connect may wait for the admin to come back from the server's consent page. */
export const PENDING_MS = 10 * 60_000;

export type Grant = {
  tokens: StoredOAuthTokens | null;
  client: StoredOAuthClientInformation | null;
  discovery: OAuthDiscoveryState | null;
  /** How the last Connect went, or why the server needs one again. */
  outcome: { sentence: string; ok: boolean } | null;
};

/** What the row may show about a sign-in: who and when, never a token. */
export type SignIn = {
  signedIn: boolean;
  /** Who signed in, by name (null once their account is gone). */
  signedInBy: string | null;
  signedInAt: Date | null;
  refreshedAt: Date | null;
  /** How the last Connect went, or why the server needs one again. */
  outcome: string | null;
  outcomeOk: boolean | null;
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/** The server and client a grant is for: a row changed to another URL or client id does not reuse it. */
export function boundOf(row: McpServerRow): string {
  const t = row.transport;
  return sha256(t.type === "http" ? `${t.url}\n${t.auth?.clientId ?? ""}` : "");
}

export async function readGrant(db: Db, row: McpServerRow, key: Buffer = secretsKey()): Promise<Grant | null> {
  const [stored] = await db.select().from(mcpOauthGrants).where(and(eq(mcpOauthGrants.serverId, row.id), eq(mcpOauthGrants.bound, boundOf(row))));
  if (!stored) return null;
  return {
    tokens: stored.tokensCiphertext ? openGrant<StoredOAuthTokens>(row.id, "tokens", stored.tokensCiphertext, key) : null,
    client: stored.clientCiphertext ? openGrant<StoredOAuthClientInformation>(row.id, "client", stored.clientCiphertext, key) : null,
    discovery: (stored.discovery as OAuthDiscoveryState | null) ?? null,
    outcome: stored.outcome === null ? null : { sentence: stored.outcome, ok: stored.outcomeOk === true },
  };
}

export type GrantChange = {
  /** New tokens; null forgets them (the grant cannot be renewed, or an admin disconnected). */
  tokens?: StoredOAuthTokens | null;
  client?: StoredOAuthClientInformation | null;
  discovery?: OAuthDiscoveryState | null;
  signedInBy?: string;
  refreshed?: boolean;
  outcome?: { sentence: string; ok: boolean } | null;
};

/** Writes what changed of the row's grant, starting one when there is none (or one made for another URL or client). */
export async function writeGrant(db: Db, row: McpServerRow, change: GrantChange, key: Buffer = secretsKey()): Promise<void> {
  const now = new Date();
  const set: Partial<typeof mcpOauthGrants.$inferInsert> = { updatedAt: now };
  if (change.tokens !== undefined) set.tokensCiphertext = change.tokens === null ? null : sealGrant(row.id, "tokens", change.tokens, key);
  if (change.client !== undefined) set.clientCiphertext = change.client === null ? null : sealGrant(row.id, "client", change.client, key);
  if (change.discovery !== undefined) set.discovery = change.discovery;
  if (change.signedInBy !== undefined) Object.assign(set, { signedInBy: change.signedInBy, signedInAt: now, refreshedAt: null });
  if (change.refreshed) set.refreshedAt = now;
  if (change.outcome !== undefined) Object.assign(set, { outcome: change.outcome?.sentence ?? null, outcomeOk: change.outcome?.ok ?? null });
  const bound = boundOf(row);
  const [held] = await db.select({ bound: mcpOauthGrants.bound }).from(mcpOauthGrants).where(eq(mcpOauthGrants.serverId, row.id));
  if (held && held.bound !== bound) await db.delete(mcpOauthGrants).where(eq(mcpOauthGrants.serverId, row.id));
  await db
    .insert(mcpOauthGrants)
    .values({ serverId: row.id, bound, ...set })
    .onConflictDoUpdate({ target: mcpOauthGrants.serverId, set });
}

export async function forgetGrant(db: Db, serverId: string): Promise<void> {
  await db.delete(mcpOauthGrants).where(eq(mcpOauthGrants.serverId, serverId));
  await db.delete(mcpOauthPending).where(eq(mcpOauthPending.serverId, serverId));
}

/** Each row's sign-in as the page may show it, by id (rows without OAuth are left out). */
export async function signIns(db: Db, rows: readonly McpServerRow[]): Promise<Map<string, SignIn>> {
  const oauth = rows.filter((row) => row.transport.type === "http" && row.transport.auth);
  const found = new Map<string, SignIn>();
  if (oauth.length === 0) return found;
  const stored = await db
    .select({ grant: mcpOauthGrants, by: user.name })
    .from(mcpOauthGrants)
    .leftJoin(user, eq(user.id, mcpOauthGrants.signedInBy))
    .where(inArray(mcpOauthGrants.serverId, oauth.map((row) => row.id)));
  for (const row of oauth) {
    const held = stored.find(({ grant: g }) => g.serverId === row.id && g.bound === boundOf(row));
    const grant = held?.grant;
    found.set(row.id, {
      signedIn: Boolean(grant?.tokensCiphertext),
      signedInBy: grant?.tokensCiphertext ? (held?.by ?? null) : null,
      signedInAt: grant?.tokensCiphertext ? grant.signedInAt : null,
      refreshedAt: grant?.tokensCiphertext ? grant.refreshedAt : null,
      outcome: grant?.outcome ?? null,
      outcomeOk: grant?.outcomeOk ?? null,
    });
  }
  return found;
}

export type Pending = { serverId: string; userId: string; verifier: string; discovery: OAuthDiscoveryState | null; redirectUrl: string; bound: string; expiresAt: Date };

/** A fresh state: 32 random bytes, so it cannot be guessed; only its hash is stored. */
export const newState = () => randomBytes(32).toString("base64url");

export async function savePending(db: Db, state: string, pending: Omit<Pending, "expiresAt">, key: Buffer = secretsKey()): Promise<void> {
  await db.delete(mcpOauthPending).where(lt(mcpOauthPending.expiresAt, new Date()));
  await db.insert(mcpOauthPending).values({
    stateHash: sha256(state),
    serverId: pending.serverId,
    userId: pending.userId,
    verifierCiphertext: sealGrant(pending.serverId, "verifier", pending.verifier, key),
    discovery: pending.discovery,
    redirectUrl: pending.redirectUrl,
    bound: pending.bound,
    expiresAt: new Date(Date.now() + PENDING_MS),
  });
}

/**
 * The Connect `state` names, taken out so it is used once whatever follows; "expired" when it outlived PENDING_MS,
 * null when no Connect under way has that state (never made, already used).
 */
export async function takePending(db: Db, state: string, key: Buffer = secretsKey()): Promise<Pending | "expired" | null> {
  const [taken] = await db.delete(mcpOauthPending).where(eq(mcpOauthPending.stateHash, sha256(state))).returning();
  if (!taken) return null;
  if (taken.expiresAt <= new Date()) return "expired";
  const verifier = openGrant<string>(taken.serverId, "verifier", taken.verifierCiphertext, key);
  if (verifier === null) return null;
  const { serverId, userId, redirectUrl, bound, expiresAt } = taken;
  return { serverId, userId, verifier, discovery: (taken.discovery as OAuthDiscoveryState | null) ?? null, redirectUrl, bound, expiresAt };
}
