// The masker a server log line about an unexpected error goes through (R-error-id): every value this studio could
// hand a tool — each stored secret and MCP sign-in token, decrypted afresh — and the studio key itself, plus what the
// failing request carried in clear (a secret's new value, a password). Read only when such a line is written, and
// bounded in time, since the database may be the very thing that failed.
import type { Db } from "@/db/client";
import { mcpOauthGrants, secrets } from "@/db/schema";
import { databaseState } from "@/server/db";
import { decryptSecret, secretsKey } from "./crypto";
import { grantValues, openGrant } from "./grants";
import { loadedStudioKey } from "./key";
import { makeMasker, type Masker } from "./mask";

const READ_WITHIN_MS = 2_000;

async function storedValues(db: Db, studio: Buffer): Promise<string[]> {
  const key = secretsKey(studio);
  const rows = await db.select({ name: secrets.name, ciphertext: secrets.ciphertext }).from(secrets);
  const values = rows.flatMap((row) => {
    try {
      return [decryptSecret(row.name, row.ciphertext, key)];
    } catch {
      // A value this key cannot read is one the process does not know either.
      return [];
    }
  });
  // An MCP server's sign-in: its tokens and registered client secret are as secret as any value (R-mcp-oauth-tokens).
  const grants = await db.select({ id: mcpOauthGrants.serverId, tokens: mcpOauthGrants.tokensCiphertext, client: mcpOauthGrants.clientCiphertext }).from(mcpOauthGrants);
  for (const grant of grants) {
    if (grant.tokens) values.push(...grantValues(openGrant(grant.id, "tokens", grant.tokens, key)));
    if (grant.client) values.push(...grantValues(openGrant(grant.id, "client", grant.client, key)));
  }
  return values;
}

function keyForms(key: Buffer): string[] {
  const hex = key.toString("hex");
  return [hex, hex.toUpperCase(), key.toString("base64"), key.toString("base64url")];
}

/** A masker for one log line; `carried` are clear values the request itself held. */
export async function logMasker(carried: readonly string[] = []): Promise<Masker> {
  const state = databaseState();
  const key = loadedStudioKey();
  let stored: string[] = [];
  if (state?.status === "ready" && key) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string[]>((resolve) => (timer = setTimeout(() => resolve([]), READ_WITHIN_MS)));
    stored = await Promise.race([storedValues(state.database.db, key).catch(() => []), late]);
    clearTimeout(timer);
  }
  return makeMasker([...stored, ...(key ? keyForms(key) : []), ...carried]);
}
