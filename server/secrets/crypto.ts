// Secret values at rest: AES-256-GCM under a key derived from the studio key, a fresh 12-byte IV per
// encryption, and the secret's name bound as additional data, so a ciphertext copied onto another name fails.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deriveKey, studioKey } from "./key";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A value that cannot be read back: another key, another name, or a changed ciphertext. */
export class SecretDecryptError extends Error {}

/** The key every secret is encrypted under: the studio key, narrowed to this one purpose. */
export function secretsKey(studio: Buffer = studioKey().key): Buffer {
  return deriveKey(studio, "secrets");
}

function additionalData(name: string): Buffer {
  return Buffer.from(`quiver:secret:${VERSION}:${name}`, "utf8");
}

/** "v1:<iv>:<tag>:<ciphertext>", each part in base64. */
export function encryptSecret(name: string, value: string, key: Buffer = secretsKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(name));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
}

/**
 * The value in clear. Only server/secrets/resolve.ts calls this, at call time, and log-mask.ts, to mask a server log
 * line; nothing returns it to an API.
 */
export function decryptSecret(name: string, ciphertext: string, key: Buffer = secretsKey()): string {
  const parts = ciphertext.split(":");
  const unreadable = () =>
    new SecretDecryptError(
      `The secret ${name} cannot be decrypted with this studio's key (was the key changed, or the row edited?); an admin can rotate it in Settings → Secrets.`,
    );
  if (parts.length !== 4 || parts[0] !== VERSION) throw unreadable();
  const [, ivText, tagText, bodyText] = parts as [string, string, string, string];
  const iv = Buffer.from(ivText, "base64");
  const tag = Buffer.from(tagText, "base64");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw unreadable();
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(name));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(bodyText, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw unreadable();
  }
}
