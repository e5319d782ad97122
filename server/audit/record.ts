// Writes audit rows. Every action worth answering "who did what, when" goes through here,
// so later rules (masking secret values) apply in one place.
import type { Db } from "@/db/client";
import { audit } from "@/db/schema";

export type AuditEntry = {
  actor: string;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown>;
};

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(audit).values({
    actor: entry.actor,
    action: entry.action,
    target: entry.target ?? null,
    detail: entry.detail ?? {},
  });
}
