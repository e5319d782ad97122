// A settings form's check of a picked secret: the file's check_secret(field, value) runs in the tool host on the
// value resolved here, and only its sentence, masked, comes back (R-secret-check). It sits above the host and the
// secrets alike, as a call does, so neither of them needs the other.
//
// Any builder may check any secret against any file, as they may bind any secret to any file's settings in an agent
// and run it: refusing here would protect nothing. The host runs check_secret only for a field the file declares as
// a Secret setting, and each check is on record (R-secret-check-audit).
import type { Db } from "@/db/client";
import { recordAudit } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import { hostFor } from "@/server/host";
import { makeMasker } from "@/server/secrets/mask";
import { decryptSecrets } from "@/server/secrets/resolve";

export type Binding = { path: string; field: string; name: string };

/** ok, or the file's sentence on why the secret is set but unusable for the field. */
export async function checkBinding(db: Db, tree: string, binding: Binding, actor: string): Promise<{ ok: boolean; message: string | null }> {
  const values = await decryptSecrets(db, [binding.name]);
  const value = values.get(binding.name)!;
  const mask = makeMasker([value]);
  // Written before the value leaves for the host, so a check that hangs or takes the host down is on record too.
  await recordAudit(db, { actor, action: "secret.checked", target: binding.name, detail: { file: binding.path, field: binding.field } }, { mask });
  let answer: { ok: boolean; message: string | null };
  try {
    answer = await hostFor(tree).checkSecret(binding.path, binding.field, value);
  } catch (err) {
    // The host's own errors can quote what check_secret returned or raised (an answer it could not turn into text).
    throw new DomainError("BAD_REQUEST", "CHECK_FAILED", mask((err as Error).message), { path: binding.path, field: binding.field });
  }
  return { ok: answer.ok, message: answer.message === null ? null : mask(answer.message) };
}
