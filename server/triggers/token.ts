// A webhook's token: 32 random bytes after "wh_", in the address a program POSTs to, kept only as its SHA-256 the
// way an API key is (R-trigger-webhook-token). Random, not chosen, so a fast hash is as strong as a slow one.
import { randomBytes } from "node:crypto";
import { hashOf, matchesHash } from "@/server/keys/value";

const TOKEN_START = "wh_";
/** "wh_" and the base64url of 32 bytes. */
const TOKEN_SHAPE = /^wh_[A-Za-z0-9_-]{43}$/;
/** What the page shows of a live token: "wh_" and 4 characters, too few to guess the rest from. */
const HINT_CHARS = TOKEN_START.length + 4;

export type HookToken = { token: string; hash: string; hint: string };

export function newHookToken(): HookToken {
  const token = TOKEN_START + randomBytes(32).toString("base64url");
  return { token, hash: hashOf(token), hint: token.slice(0, HINT_CHARS) };
}

/** Stands in for a stored hash when the agent has no webhook, so that answer costs the same comparison. */
const NO_HASH = hashOf("no webhook here");

/** Whether `token` is the one whose hash is stored, in constant time; a token of the wrong shape never is. */
export function tokenMatches(token: string, storedHash: string | null): boolean {
  const same = matchesHash(token, storedHash ?? NO_HASH);
  return TOKEN_SHAPE.test(token) && storedHash !== null && same;
}
