// History: a file's published versions, the file as it was at one, and two versions compared: the code, and the
// catalog entry the model saw at each (derived by the tool host, as the live catalog is). Read from the versions in
// the database, which hold every file whole, so every studio process shows the same History whether or not its own
// repository has seen a publish (R-version-stored). Edit when History shows more.
import { asc, like, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { treeVersions } from "@/db/schema";
import { hostFor, type CatalogFile, type HostOptions } from "@/server/host";
import { DomainError } from "@/server/errors";
import { readFile, treePath } from "./files";
import { diffSchemas, type SchemaChange } from "./schema-diff";

export type PublishedVersion = { number: number; commit: string; message: string; author: string; at: string };

/** A published commit, or "working": the file on disk now. */
export type VersionRef = string;
export const WORKING = "working";
export const COMMIT = /^[0-9a-f]{7,40}$/;

type Where = { db: Db; tree: string; path: string };

/** The file's text in each version, as an SQL value: null in a version without it. */
const textOf = (path: string) => sql<string | null>`${treeVersions.files} ->> ${path}::text`;

/**
 * The file's published versions, newest first; none before the first publish. A version that left the file as the
 * one before it had it is not one of its versions, nor is one without it (it was deleted).
 */
export async function listVersions({ db, tree, path }: Where): Promise<PublishedVersion[]> {
  treePath(tree, path);
  const rows = await db
    .select({ number: treeVersions.number, commit: treeVersions.commit, message: treeVersions.message, author: treeVersions.authorName, at: treeVersions.publishedAt, text: textOf(path) })
    .from(treeVersions)
    .orderBy(asc(treeVersions.number));
  const changed: PublishedVersion[] = [];
  let before: string | null = null;
  for (const { text, at, ...row } of rows) {
    if (text !== null && text !== before) changed.push({ ...row, at: at.toISOString() });
    before = text;
  }
  return changed.reverse();
}

/** The file's text as published in `commit` (its full hash, or the start of it). */
export async function readVersion({ db, tree, path, commit }: Where & { commit: string }): Promise<string> {
  treePath(tree, path);
  if (!COMMIT.test(commit)) throw new DomainError("BAD_REQUEST", "BAD_VERSION", `“${commit}” is not a published version: pick one from the file's history.`);
  // The pattern is hex digits only (checked above), so it holds none of LIKE's wildcards.
  const rows = await db.select({ text: textOf(path) }).from(treeVersions).where(like(treeVersions.commit, `${commit}%`)).limit(2);
  const text = rows.length === 1 ? rows[0]!.text : null;
  if (text === null) throw new DomainError("NOT_FOUND", "NO_VERSION", `${path} was not published in version ${commit.slice(0, 7)}: pick one of its published versions.`);
  return text;
}

export type ComparedSide = { version: VersionRef; source: string; entry: CatalogFile };
export type Comparison = { before: ComparedSide; after: ComparedSide; schemaDiff: SchemaChange[] };

/**
 * Two versions of a file side by side: their code, the catalog entry of each, and what the model saw differently.
 * Each entry comes from the host's preview of that version's text: the rest of the tree (helpers) is as it is now.
 */
export async function compareVersions(options: Where & { from: VersionRef; to: VersionRef; host?: HostOptions }): Promise<Comparison> {
  const { tree, path } = options;
  const host = hostFor(tree, options.host);
  const side = async (version: VersionRef): Promise<ComparedSide> => {
    const source = version === WORKING ? (await readFile(tree, path)).source : await readVersion({ ...options, commit: version });
    return { version, source, entry: await host.preview(path, source) };
  };
  const [before, after] = await Promise.all([side(options.from), side(options.to)]);
  return { before, after, schemaDiff: diffSchemas(before.entry, after.entry) };
}
