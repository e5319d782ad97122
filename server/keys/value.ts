// An API key's value: 32 random bytes after "qk_", kept only as its SHA-256 and found again by its first characters
// (R-key-hash). A key is random, not a password a person chose, so a fast hash is as strong as a slow one: nobody
// can guess 256 bits, and a leaked table of hashes gives back no key.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const KEY_START = "qk_";
/** The characters after "qk_" that the prefix keeps: 48 bits, enough to find a key without revealing it. */
const PREFIX_CHARS = 8;
/** "qk_" and the base64url of 32 bytes (43 characters, no padding). */
const KEY_SHAPE = /^qk_[A-Za-z0-9_-]{43}$/;

export type KeyValue = { value: string; prefix: string; hash: string };

export function hashOf(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

export function prefixOf(value: string): string {
  return value.slice(0, KEY_START.length + PREFIX_CHARS);
}

export function newKeyValue(): KeyValue {
  const value = KEY_START + randomBytes(32).toString("base64url");
  return { value, prefix: prefixOf(value), hash: hashOf(value) };
}

/** Whether `value` has a key's shape at all: what is not is refused without a database read. */
export function looksLikeKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/** Compares the value's hash with the stored one in constant time, so timing tells nothing about how much matched. */
export function matchesHash(value: string, storedHex: string): boolean {
  const given = Buffer.from(hashOf(value), "hex");
  const stored = Buffer.from(storedHex, "hex");
  return stored.length === given.length && timingSafeEqual(given, stored);
}
