// Reading the audit log for Settings → Audit: newest first, filtered by who, what and when, with each
// actor's email (or, for a program, its API key's name) beside its id: rows keep the id, so a renamed or
// deleted account still reads right.
import { and, desc, eq, gte, ilike, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, audit, user } from "@/db/schema";
import { fromStored } from "@/db/storable";

export type AuditFilter = { actor?: string; action?: string; target?: string; from?: Date; to?: Date; limit: number };

const like = (text: string) => `%${text.replace(/[%_\\]/g, "\\$&")}%`;

export async function listAudit(db: Db, filter: AuditFilter) {
  const where: SQL[] = [];
  if (filter.actor) where.push(or(eq(audit.actor, filter.actor), ilike(user.email, like(filter.actor)))!);
  if (filter.action) where.push(ilike(audit.action, like(filter.action)));
  if (filter.target) where.push(ilike(audit.target, like(filter.target)));
  if (filter.from) where.push(gte(audit.at, filter.from));
  if (filter.to) where.push(lte(audit.at, filter.to));
  const rows = await db
    .select({
      id: audit.id,
      at: audit.at,
      actor: audit.actor,
      actorEmail: user.email,
      actorKey: apiKeys.name,
      action: audit.action,
      target: audit.target,
      detail: audit.detail,
    })
    .from(audit)
    .leftJoin(user, eq(user.id, audit.actor))
    // A key acts as "key:<its id>" (R-key-audit).
    .leftJoin(apiKeys, eq(sql`'key:' || ${apiKeys.id}::text`, audit.actor))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(audit.at))
    .limit(filter.limit);
  return rows.map(({ actorKey, ...row }) => ({
    ...row,
    actorEmail: row.actorEmail ?? (actorKey === null ? null : `API key ${actorKey}`),
    target: fromStored(row.target),
    detail: fromStored(row.detail),
  }));
}
