// Writes audit rows. Every action worth answering "who did what, when" goes through here, so the rules on
// what a row may hold apply in one place: a row written about a call that used secrets is masked first.
import type { Db } from "@/db/client";
import { audit } from "@/db/schema";
import type { Masker } from "@/server/secrets/mask";

export type AuditEntry = {
  actor: string;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown>;
};

export type AuditOptions = {
  /** The masker of the call the row is about (makeMasker(resolved values)): its target and detail keep only ***. */
  mask?: Masker;
};

export async function recordAudit(db: Db, entry: AuditEntry, options: AuditOptions = {}): Promise<void> {
  const mask = options.mask;
  const target = entry.target ?? null;
  const detail = entry.detail ?? {};
  await db.insert(audit).values({
    actor: entry.actor,
    action: entry.action,
    target: mask && target !== null ? mask(target) : target,
    detail: mask ? mask.deep(detail) : detail,
  });
}
