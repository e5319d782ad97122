// A connection's key for a Test or a model list, outside any run: decrypted for that one use and recorded as a
// `secret.used` row (never the value). An unknown secret is the sentence the caller shows.
import type { Db } from "@/db/client";
import { DomainError } from "@/server/errors";
import { SECRET_REFERENCE } from "@/server/secrets/names";
import { resolveSecrets } from "@/server/secrets/resolve";

export type KeyFor = { ok: true; key: string | null } | { ok: false; sentence: string };

export async function connectionKey(db: Db, apiKey: string | null, use: { actor: string; what: string }): Promise<KeyFor> {
  if (!apiKey) return { ok: true, key: null };
  const name = SECRET_REFERENCE.exec(apiKey)?.[1];
  if (!name) return { ok: false, sentence: "A key is never written here: save it in Settings → Secrets and pick it by name (it is stored as ${NAME})." };
  try {
    const values = await resolveSecrets(db, [name], { actor: use.actor, via: "model-connection", tool: use.what });
    return { ok: true, key: values.get(name)! };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, sentence: err.message };
    throw err;
  }
}
