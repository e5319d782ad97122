// Secrets at rest (R-secret-at-rest): AES-256-GCM, a fresh IV each time, the name bound as additional data.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, SecretDecryptError } from "./crypto";
import { deriveKey } from "./key";

const key = deriveKey(randomBytes(32), "secrets");

describe("encrypted at rest", () => {
  it("round-trips a value, unicode included, in the v1:<iv>:<tag>:<ct> form", () => {
    const value = "tkt_sécret ✓ with spaces and 🔑";
    const ciphertext = encryptSecret("TICKETS_TOKEN", value, key);
    expect(ciphertext).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(ciphertext).not.toContain(value);
    expect(decryptSecret("TICKETS_TOKEN", ciphertext, key)).toBe(value);
  });

  it("uses a random 12-byte IV per encryption, so the same value never encrypts the same twice", () => {
    const a = encryptSecret("A_TOKEN", "same value", key);
    const b = encryptSecret("A_TOKEN", "same value", key);
    expect(a).not.toBe(b);
    expect(Buffer.from(a.split(":")[1]!, "base64")).toHaveLength(12);
  });

  it("refuses a tampered ciphertext, tag or IV", () => {
    const ciphertext = encryptSecret("A_TOKEN", "the value", key);
    const [version, iv, tag, body] = ciphertext.split(":") as [string, string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, "base64");
      bytes[0]! ^= 1;
      return bytes.toString("base64");
    };
    for (const tampered of [
      [version, iv, tag, flip(body)],
      [version, iv, flip(tag), body],
      [version, flip(iv), tag, body],
      ["v2", iv, tag, body],
    ]) {
      expect(() => decryptSecret("A_TOKEN", tampered.join(":"), key)).toThrow(SecretDecryptError);
    }
    expect(() => decryptSecret("A_TOKEN", "not a ciphertext", key)).toThrow(/cannot be decrypted with this studio's key/);
  });

  it("refuses a ciphertext copied onto another name (the name is the additional authenticated data)", () => {
    const ciphertext = encryptSecret("PROD_TOKEN", "the value", key);
    expect(() => decryptSecret("DEV_TOKEN", ciphertext, key)).toThrow(SecretDecryptError);
  });

  it("refuses a ciphertext under a wrong key", () => {
    const ciphertext = encryptSecret("A_TOKEN", "the value", key);
    expect(() => decryptSecret("A_TOKEN", ciphertext, deriveKey(randomBytes(32), "secrets"))).toThrow(SecretDecryptError);
  });
});
