// Published versions in the database: each publish stores its files whole, numbered 1, 2, 3…, so every studio
// process, on any machine, can run one without the tree folder (R-version-stored). Edit when a version keeps more.
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { treeVersions } from "@/db/schema";
import type { Identity } from "./git";

export type StoredVersion = { number: number; commit: string; message: string; files: Record<string, string>; publishedAt: Date };

/** Numbers are taken by whoever inserts first; a publish that lost the race to another process takes the next. */
const TRIES = 5;

/**
 * Store a published commit as the next version and answer its number. The same commit stored again (a retry after
 * the first store's answer was lost) answers the number it already has.
 */
export async function storeVersion(db: Db, v: { commit: string; message: string; identity: Identity; files: Record<string, string>; at: Date }): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const [row] = await db
      .insert(treeVersions)
      .values({
        number: sql`(select coalesce(max(${treeVersions.number}), 0) + 1 from ${treeVersions})`,
        commit: v.commit,
        message: v.message,
        authorName: v.identity.name,
        authorEmail: v.identity.email,
        files: v.files,
        publishedAt: v.at,
      })
      .onConflictDoNothing()
      .returning({ number: treeVersions.number });
    if (row) return row.number;
    const [same] = await db.select({ number: treeVersions.number }).from(treeVersions).where(eq(treeVersions.commit, v.commit));
    if (same) return same.number;
    if (attempt + 1 >= TRIES) throw new Error("Another studio process kept publishing at the same moment: publish again.");
  }
}

/** The newest version's number, or null before the first publish. */
export async function latestVersion(db: Db): Promise<number | null> {
  const [row] = await db.select({ number: treeVersions.number }).from(treeVersions).orderBy(desc(treeVersions.number)).limit(1);
  return row?.number ?? null;
}

/** The version with this number, files and all; null when there is none. */
export async function readStoredVersion(db: Db, number: number): Promise<StoredVersion | null> {
  const [row] = await db.select().from(treeVersions).where(eq(treeVersions.number, number));
  return row ? { number: row.number, commit: row.commit, message: row.message, files: row.files, publishedAt: row.publishedAt } : null;
}

/** What the latest version of the tree is, as an SQL value: used where a run's row is written, costing no query. */
export const LATEST_VERSION = sql<number | null>`(select max(${treeVersions.number}) from ${treeVersions})`;
