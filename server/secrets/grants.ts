// What an OAuth sign-in to an MCP server leaves (tokens, a registered client, a PKCE verifier), encrypted exactly as a
// secret's value is (R-mcp-oauth-tokens): the same key and cipher, with the server and the part bound as additional
// data, so a ciphertext copied onto another server or part does not read. Here, below the MCP layer, so the log
// masker (log-mask.ts) can mask these values too.
import { decryptSecret, encryptSecret, secretsKey } from "./crypto";

export type GrantPart = "tokens" | "client" | "verifier";

const nameOf = (serverId: string, part: GrantPart) => `mcp-oauth:${serverId}:${part}`;

export function sealGrant(serverId: string, part: GrantPart, value: unknown, key: Buffer = secretsKey()): string {
  return encryptSecret(nameOf(serverId, part), JSON.stringify(value), key);
}

/** The value in clear, or null when this key cannot read it (another key, another server, an edited row). */
export function openGrant<T>(serverId: string, part: GrantPart, ciphertext: string, key: Buffer = secretsKey()): T | null {
  try {
    return JSON.parse(decryptSecret(nameOf(serverId, part), ciphertext, key)) as T;
  } catch {
    return null;
  }
}

/** The texts of a grant part that a log or an answer must never show: its tokens, its client secret, a verifier. */
export function grantValues(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  return ["access_token", "refresh_token", "id_token", "client_secret"].flatMap((field) =>
    typeof record[field] === "string" && record[field] !== "" ? [record[field] as string] : [],
  );
}
