// The studio key: 32 bytes that encrypt every secret (AES-256-GCM) and sign sessions. From
// QUIVER_SECRET_KEY, or a key file created with mode 0600 in the data folder on first start.
// A wrong or missing key is a start-up error with a sentence, never a silent reset.
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { env } from "@/server/env";
import { studioMeta } from "@/db/schema";

export class StudioKeyError extends Error {}

const FINGERPRINT = "secret_key_fingerprint";

/** Reads a key written as 64 hex digits or as base64 of 32 bytes. */
export function parseKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) {
    throw new StudioKeyError(
      `${where} is not a studio key: it must be 32 bytes, written as 64 hex digits or in base64 (for example the output of \`openssl rand -base64 32\`).`,
    );
  }
  return key;
}

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, "secret.key");
}

/** The key from the environment, else from the key file, creating the file when none exists. */
export function loadKey(options: { secretKey: string | undefined; dataDir: string }): { key: Buffer; source: "env" | "file" | "new file" } {
  if (options.secretKey) return { key: parseKey(options.secretKey, "QUIVER_SECRET_KEY"), source: "env" };
  const file = keyFilePath(options.dataDir);
  try {
    return { key: parseKey(fs.readFileSync(file, "utf8"), file), source: "file" };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const key = randomBytes(32);
  // "wx": never replace a key file that appeared meanwhile; 0600: only the studio's user reads it.
  fs.writeFileSync(file, key.toString("base64") + "\n", { flag: "wx", mode: 0o600 });
  return { key, source: "new file" };
}

/** A value derived from the key for one purpose, so no two uses share key material. */
export function deriveKey(key: Buffer, purpose: string): Buffer {
  return createHmac("sha256", key).update(`quiver:${purpose}`).digest();
}

/**
 * Checks the key against the one the database was first used with (kept as a fingerprint, never the key),
 * and records it on first use. A different key would make every secret unreadable: refuse to start.
 */
export async function checkKey(db: Db, key: Buffer, source: string): Promise<void> {
  const fingerprint = deriveKey(key, "fingerprint").toString("hex");
  const [row] = await db.select().from(studioMeta).where(eq(studioMeta.key, FINGERPRINT));
  if (!row) {
    await db.insert(studioMeta).values({ key: FINGERPRINT, value: fingerprint }).onConflictDoNothing();
    return;
  }
  if (row.value !== fingerprint) {
    throw new StudioKeyError(
      source === "env"
        ? "QUIVER_SECRET_KEY is not the key this studio's secrets were encrypted with: set it to the original key. The secrets are kept, unread, until then."
        : "The key file is not the key this studio's secrets were encrypted with (was it replaced, or is QUIVER_SECRET_KEY missing?): restore the original key file or set QUIVER_SECRET_KEY to the original key. The secrets are kept, unread, until then.",
    );
  }
}

type LoadedKey = { key: Buffer; source: "env" | "file" | "new file" };

const holder = globalThis as typeof globalThis & { __quiverKey?: LoadedKey };

/**
 * Start-up: the key for this database. A database whose secrets were encrypted under a key file that is
 * gone is refused before a new file is made, so the next start cannot mistake a fresh key for the old one.
 */
export async function prepareKey(db: Db, options: { secretKey: string | undefined; dataDir: string }): Promise<LoadedKey> {
  const [recorded] = await db.select().from(studioMeta).where(eq(studioMeta.key, FINGERPRINT));
  const file = keyFilePath(options.dataDir);
  if (recorded && !options.secretKey && !fs.existsSync(file)) {
    throw new StudioKeyError(
      `The key file ${file} is missing, and this studio's secrets were encrypted with its key: restore the file, or set QUIVER_SECRET_KEY to that key. Nothing was reset.`,
    );
  }
  const loaded = loadKey(options);
  await checkKey(db, loaded.key, loaded.source);
  holder.__quiverKey = loaded;
  return loaded;
}

/** The studio's key, loaded once per process from env() (QUIVER_SECRET_KEY or the key file). */
export function studioKey(): LoadedKey {
  if (!holder.__quiverKey) {
    const { secretKey, dataDir } = env();
    holder.__quiverKey = loadKey({ secretKey, dataDir });
  }
  return holder.__quiverKey;
}

/** The studio's key when this process has loaded it, else null; never reads or makes a key file. */
export function loadedStudioKey(): Buffer | null {
  return holder.__quiverKey?.key ?? null;
}
