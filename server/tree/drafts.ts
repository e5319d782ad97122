// Unsaved editor buffers kept on the server, per person and file: a reload or a restart loses nothing.
import { and, eq, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { drafts } from "@/db/schema";

export type Draft = { source: string; baseHash: string; updatedAt: Date };

export async function getDraft(db: Db, userId: string, path: string): Promise<Draft | null> {
  const rows = await db
    .select({ source: drafts.source, baseHash: drafts.baseHash, updatedAt: drafts.updatedAt })
    .from(drafts)
    .where(and(eq(drafts.userId, userId), eq(drafts.path, path)));
  return rows[0] ?? null;
}

export async function putDraft(db: Db, userId: string, path: string, source: string, baseHash: string): Promise<void> {
  const updatedAt = new Date();
  await db
    .insert(drafts)
    .values({ userId, path, source, baseHash, updatedAt })
    .onConflictDoUpdate({ target: [drafts.userId, drafts.path], set: { source, baseHash, updatedAt } });
}

export async function dropDraft(db: Db, userId: string, path: string): Promise<void> {
  await db.delete(drafts).where(and(eq(drafts.userId, userId), eq(drafts.path, path)));
}

/**
 * After a save of `saved`: drops the draft the save was made from (`before`, read as the save began) or one holding
 * the saved text. A draft kept while the save ran holds edits typed after it, and stays (R-save-draft-kept).
 */
export async function dropSavedDraft(db: Db, userId: string, path: string, before: Draft | null, saved: string): Promise<void> {
  const same = eq(drafts.source, saved);
  const made = before ? or(same, and(eq(drafts.updatedAt, before.updatedAt), eq(drafts.source, before.source))) : same;
  await db.delete(drafts).where(and(eq(drafts.userId, userId), eq(drafts.path, path), made));
}

/** The paths this person has unsaved edits in: the tree marks them. */
export async function draftPaths(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ path: drafts.path }).from(drafts).where(eq(drafts.userId, userId));
  return rows.map((row) => row.path);
}

/**
 * A renamed file keeps its drafts under the new name; a deleted one loses them. A draft already under the new name
 * belongs to no file: a rename goes only to a free name, so it was kept by an editor left open on a file deleted
 * since. It gives way: restored on the renamed file it would pass off the deleted file's text as that file's
 * unsaved edits, and it must not block the rename of a file whose drafts are real. An upsert rather than an update,
 * so such an editor keeping its draft at the same moment cannot make the move collide.
 */
export async function moveDrafts(db: Db, from: string, to: string | null): Promise<void> {
  if (to === null) {
    await db.delete(drafts).where(eq(drafts.path, from));
    return;
  }
  await db.transaction(async (tx) => {
    await tx.delete(drafts).where(eq(drafts.path, to));
    await tx
      .insert(drafts)
      .select(
        tx
          .select({ userId: drafts.userId, path: sql<string>`${to}::text`.as("path"), source: drafts.source, baseHash: drafts.baseHash, updatedAt: drafts.updatedAt })
          .from(drafts)
          .where(eq(drafts.path, from)),
      )
      .onConflictDoUpdate({
        target: [drafts.userId, drafts.path],
        set: { source: sql`excluded.source`, baseHash: sql`excluded.base_hash`, updatedAt: sql`excluded.updated_at` },
      });
    await tx.delete(drafts).where(eq(drafts.path, from));
  });
}
