// Calls saved from Try it, per file, to run again with one click.
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolExamples } from "@/db/schema";

export type ExampleInput = { path: string; tool: string; title: string; args: Record<string, unknown>; settings: Record<string, unknown> };

export function listExamples(db: Db, path: string) {
  return db.select().from(toolExamples).where(eq(toolExamples.path, path)).orderBy(desc(toolExamples.createdAt));
}

export async function saveExample(db: Db, createdBy: string, example: ExampleInput) {
  const [row] = await db.insert(toolExamples).values({ ...example, createdBy }).returning();
  return row!;
}

export async function deleteExample(db: Db, path: string, id: string) {
  await db.delete(toolExamples).where(and(eq(toolExamples.id, id), eq(toolExamples.path, path)));
}

/** A renamed file keeps its examples; a deleted one loses them. */
export async function moveExamples(db: Db, from: string, to: string | null) {
  if (to === null) await db.delete(toolExamples).where(eq(toolExamples.path, from));
  else await db.update(toolExamples).set({ path: to }).where(eq(toolExamples.path, from));
}
