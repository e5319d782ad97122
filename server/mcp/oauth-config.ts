// An http server's sign-in as its row writes it (R-mcp-oauth-connect): "oauth", or an object with a given client id,
// its secret as a ${NAME} reference (never written out), and the scopes to ask for. Checked here without the
// database; registry.ts checks that the secret exists, as for every other reference.
import type { McpOAuthSettings } from "@/db/schema";
import { SECRET_REFERENCE } from "@/server/secrets/names";

export type OAuthSettings = McpOAuthSettings;

const CLIENT_ID_MAX = 512;
const SCOPES_MAX = 50;
/** RFC 6749's scope-token: printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/;

type Add = (path: string, message: string) => void;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The first fault of a value, or null when it is fine. */
function clientIdFault(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return "The client id must be text, as the server's developer settings show it.";
  if (value.length > CLIENT_ID_MAX) return `A client id has at most ${CLIENT_ID_MAX} characters; this one has ${value.length}.`;
  if (/[\u0000-\u001f\u007f]/.test(value) || value.includes("${")) {
    return "The client id is a plain text the server gave (it is not secret): write it without line breaks or ${…}.";
  }
  return null;
}

function clientSecretFault(value: unknown, id: string | null): string | null {
  if (typeof value !== "string" || !SECRET_REFERENCE.test(value)) {
    return "The client secret must be a secret's reference, like ${TICKETS_CLIENT_SECRET}: create the secret in Settings → Secrets and write its name here.";
  }
  if (id === null) return "A client secret belongs to a client id: give the client id too, or leave both empty for the studio to register itself.";
  return null;
}

function scopesFault(list: unknown): string | null {
  if (!Array.isArray(list) || list.some((scope) => typeof scope !== "string")) {
    return `The scopes are a list of texts, like ["tickets:read", "tickets:write"], or one text with spaces between them.`;
  }
  if (list.length > SCOPES_MAX) return `Ask for at most ${SCOPES_MAX} scopes; these are ${list.length}.`;
  const bad = (list as string[]).find((scope) => !SCOPE_TOKEN.test(scope));
  if (bad !== undefined) return `“${bad.slice(0, 60)}” is not a scope: a scope is one word of printable characters, without quotes or backslashes.`;
  return null;
}

const empty = (value: unknown) => value === undefined || value === null || value === "";

/** The row's sign-in, null for none; each fault is added at its field. */
export function parseOAuth(raw: unknown, headers: Record<string, string>, add: Add): OAuthSettings | null {
  if (raw === undefined || raw === null || raw === "none") return null;
  const given = raw === "oauth" ? { type: "oauth" } : raw;
  if (!isRecord(given) || given.type !== "oauth") {
    add("transport.auth", `The sign-in is "oauth" (an admin signs in with Connect, and the studio keeps the tokens) or left out (only the headers are sent).`);
    return null;
  }
  const authorization = Object.keys(headers).find((name) => name.toLowerCase() === "authorization");
  if (authorization) add(`transport.headers.${authorization}`, "A server signed in with OAuth gets its Authorization header from the sign-in: remove this header, or turn the sign-in off.");
  /** Whether the field is fine; its fault is added at it otherwise. */
  const fine = (at: string, message: string | null) => {
    if (message !== null) add(`transport.auth.${at}`, message);
    return message === null;
  };
  const id = !empty(given.clientId) && fine("clientId", clientIdFault(given.clientId)) ? (given.clientId as string).trim() : null;
  const secret = !empty(given.clientSecret) && fine("clientSecret", clientSecretFault(given.clientSecret, id)) ? (given.clientSecret as string) : null;
  const list = typeof given.scopes === "string" ? given.scopes.split(/\s+/).filter(Boolean) : (given.scopes ?? []);
  const scopes = fine("scopes", scopesFault(list)) ? [...new Set(list as string[])] : [];
  return { type: "oauth", clientId: id, clientSecret: secret, scopes };
}
