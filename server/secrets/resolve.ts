// ${NAME} references in settings, resolved to values at call time, inside the server. The only place a value is
// decrypted: each decryption marks the secret's lastUsedAt, and each use is a `secret.used` audit row (never the
// value), written in one INSERT for every secret of that use. How often a caller decrypts and records (per call
// for Try it, per run for a run) is server/calls/secrets.ts's business.
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { secrets } from "@/db/schema";
import { recordAudits } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import { decryptSecret, SecretDecryptError, secretsKey } from "./crypto";
import { REFERENCE, referencedNames } from "./names";

/** Who uses the secrets, and for what: the `secret.used` audit row's actor and detail. */
export type SecretUse = {
  actor: string;
  /**
   * try-it: the editor's Try it; run: an agent's run; mcp-server: an MCP server started (or its session opened) with
   * the secrets its row names; model-connection: a model connection's Test or the list of models builders pick from.
   * A settings form's check is a secret.checked row (calls/check.ts).
   */
  via: "try-it" | "run" | "mcp-server" | "model-connection";
  /** The operation the values go to. */
  tool: string;
  /** The run that uses them, when it is a run. */
  run?: string;
};

function listed(names: string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Decrypts the named secrets, without recording a use; an unknown name is refused before anything is read. */
export async function decryptSecrets(db: Db, names: Iterable<string>, key: Buffer = secretsKey()): Promise<Map<string, string>> {
  const wanted = [...new Set(names)];
  const values = new Map<string, string>();
  if (wanted.length === 0) return values;
  const rows = await db.select({ name: secrets.name, ciphertext: secrets.ciphertext }).from(secrets).where(inArray(secrets.name, wanted));
  const missing = wanted.filter((name) => !rows.some((row) => row.name === name));
  if (missing.length > 0) {
    throw new DomainError(
      "BAD_REQUEST",
      "UNKNOWN_SECRET",
      missing.length === 1
        ? `There is no secret named ${missing[0]}; an admin can create it in Settings → Secrets.`
        : `There are no secrets named ${listed(missing)}; an admin can create them in Settings → Secrets.`,
      { names: missing },
    );
  }
  for (const row of rows) {
    try {
      values.set(row.name, decryptSecret(row.name, row.ciphertext, key));
    } catch (err) {
      if (err instanceof SecretDecryptError) throw new DomainError("PRECONDITION_FAILED", "SECRET_UNREADABLE", err.message, { name: row.name });
      throw err;
    }
  }
  await db.update(secrets).set({ lastUsedAt: new Date() }).where(inArray(secrets.name, wanted));
  return values;
}

/** One `secret.used` row per name, all in one INSERT. */
export async function recordSecretUse(db: Db, names: Iterable<string>, use: SecretUse): Promise<void> {
  const detail = { via: use.via, tool: use.tool, ...(use.run ? { run: use.run } : {}) };
  await recordAudits(db, [...new Set(names)].map((name) => ({ actor: use.actor, action: "secret.used", target: name, detail })));
}

/** Decrypts the named secrets for one use and records it; an unknown name is refused before anything is read or called. */
export async function resolveSecrets(db: Db, names: Iterable<string>, use: SecretUse, key?: Buffer): Promise<Map<string, string>> {
  const values = await decryptSecrets(db, names, key);
  await recordSecretUse(db, values.keys(), use);
  return values;
}

/** `value` with every `${NAME}` in its strings replaced by the secret's value; every name must be in `values`. */
export function substitute(value: unknown, values: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return value.replace(REFERENCE, (_, name: string) => values.get(name)!);
  if (Array.isArray(value)) return value.map((item) => substitute(item, values));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, substitute(item, values)]));
  }
  return value;
}

/**
 * Settings with every `${NAME}` (a whole value, or inside a longer string such as "Bearer ${TOKEN}") replaced by
 * the secret's value, and the values used, for masking what comes back. For the host's `_meta` only.
 */
export async function resolveSettings(
  db: Db,
  settings: Record<string, unknown>,
  use: SecretUse,
  key?: Buffer,
): Promise<{ settings: Record<string, unknown>; values: string[] }> {
  const names = referencedNames(settings);
  if (names.size === 0) return { settings, values: [] };
  const values = await resolveSecrets(db, names, use, key);
  return { settings: substitute(settings, values) as Record<string, unknown>, values: [...values.values()] };
}
