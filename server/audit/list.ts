// Reading the audit log for Settings → Audit: newest first, filtered by who, what and when.
import { and, desc, eq, gte, ilike, lte, or, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { audit } from "@/db/schema";

export type AuditFilter = { actor?: string; action?: string; target?: string; from?: Date; to?: Date; limit: number };

export async function listAudit(db: Db, filter: AuditFilter) {
  const where: SQL[] = [];
  if (filter.actor) where.push(eq(audit.actor, filter.actor));
  if (filter.action) where.push(ilike(audit.action, `${filter.action.replace(/[%_]/g, "\\$&")}%`));
  if (filter.target) where.push(or(ilike(audit.target, `%${filter.target.replace(/[%_]/g, "\\$&")}%`))!);
  if (filter.from) where.push(gte(audit.at, filter.from));
  if (filter.to) where.push(lte(audit.at, filter.to));
  return db
    .select()
    .from(audit)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(audit.at))
    .limit(filter.limit);
}
