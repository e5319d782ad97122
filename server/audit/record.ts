// Writes audit rows. Every action worth answering "who did what, when" goes through here, so the rules on
// what a row may hold apply in one place: a row written about a call that used secrets is masked first.
// Below the secrets (which write rows of their own), so it names the masking it needs rather than importing it.
import type { Db } from "@/db/client";
import { audit } from "@/db/schema";
import { toStored } from "@/db/storable";

/** What masks a row: the secrets' Masker (makeMasker) is one. */
export type AuditMask = ((text: string) => string) & { deep<T>(value: T): T };

export type AuditEntry = {
  actor: string;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown>;
};

export type AuditOptions = {
  /** The masker of the call the row is about (makeMasker(resolved values)): its target and detail keep only ***. */
  mask?: AuditMask;
};

function rowOf(entry: AuditEntry, mask: AuditMask | undefined) {
  const target = entry.target ?? null;
  const detail = entry.detail ?? {};
  // A tool's failure text may hold a NUL, which PostgreSQL cannot keep: stored escaped, read back whole (R-args-nul).
  return toStored({
    actor: entry.actor,
    action: entry.action,
    target: mask && target !== null ? mask(target) : target,
    detail: mask ? mask.deep(detail) : detail,
  });
}

export async function recordAudit(db: Db, entry: AuditEntry, options: AuditOptions = {}): Promise<void> {
  await db.insert(audit).values(rowOf(entry, options.mask));
}

/** Several rows in one INSERT: what one action did to many things at once. */
export async function recordAudits(db: Db, entries: AuditEntry[], options: AuditOptions = {}): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(audit).values(entries.map((entry) => rowOf(entry, options.mask)));
}
