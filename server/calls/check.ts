// A settings form's check of a picked secret: the file's check_secret(field, value) runs in the tool host on the
// value resolved here, and only its sentence, masked, comes back (R-secret-check). It sits above the host and the
// secrets alike, as a call does, so neither of them needs the other.
import type { Db } from "@/db/client";
import { DomainError } from "@/server/errors";
import { hostFor } from "@/server/host";
import { makeMasker } from "@/server/secrets/mask";
import { resolveSecrets } from "@/server/secrets/resolve";

export type Binding = { path: string; field: string; name: string };

/** ok, or the file's sentence on why the secret is set but unusable for the field. */
export async function checkBinding(db: Db, tree: string, binding: Binding, actor: string): Promise<{ ok: boolean; message: string | null }> {
  const values = await resolveSecrets(db, [binding.name], { actor, via: "check", tool: binding.path });
  const value = values.get(binding.name)!;
  const mask = makeMasker([value]);
  let answer: { ok: boolean; message: string | null };
  try {
    answer = await hostFor(tree).checkSecret(binding.path, binding.field, value);
  } catch (err) {
    throw new DomainError("BAD_REQUEST", "CHECK_FAILED", mask((err as Error).message), { path: binding.path, field: binding.field });
  }
  return { ok: answer.ok, message: answer.message === null ? null : mask(answer.message) };
}
