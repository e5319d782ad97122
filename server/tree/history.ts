// History: a file's published versions, the file as it was at one, and two versions compared: the code, and the
// catalog entry the model saw at each (derived by the tool host, as the live catalog is). Edit when History shows more.
import { hostFor, type CatalogFile, type HostOptions } from "@/server/host";
import { DomainError } from "@/server/errors";
import { GitError, git, headCommit, repoFor } from "./git";
import { readFile, treePath } from "./files";
import { diffSchemas, type SchemaChange } from "./schema-diff";

export type PublishedVersion = { commit: string; message: string; author: string; at: string };

/** A published commit, or "working": the file on disk now. */
export type VersionRef = string;
export const WORKING = "working";
export const COMMIT = /^[0-9a-f]{7,40}$/;

type Where = { tree: string; dataDir: string; path: string };

// git log fields and records, split by the ASCII unit and record separators that a message cannot hold.
const FIELD = "\x1f";
const RECORD = "\x1e";

/** The file's published versions, newest first; none before the first publish. */
export async function listVersions({ tree, dataDir, path }: Where): Promise<PublishedVersion[]> {
  treePath(tree, path);
  const repo = repoFor(dataDir, tree);
  if (!(await headCommit(repo))) return [];
  // A commit that deleted the file is not a version of it. (The filter is spelt as what to keep: git's "d", for
  // "all but deletions", also drops the root commit.)
  const log = await git(repo, ["log", "--diff-filter=ACMRT", `--format=%H${FIELD}%an${FIELD}%aI${FIELD}%B${RECORD}`, "HEAD", "--", path]);
  return log.stdout
    .split(RECORD)
    .map((record) => record.trim())
    .filter(Boolean)
    .map((record) => {
      const [commit = "", author = "", at = "", message = ""] = record.split(FIELD);
      return { commit, author, at: new Date(at).toISOString(), message: message.trim() };
    });
}

/** The file's text as published in `commit`. */
export async function readVersion({ tree, dataDir, path, commit }: Where & { commit: string }): Promise<string> {
  treePath(tree, path);
  if (!COMMIT.test(commit)) throw new DomainError("BAD_REQUEST", "BAD_VERSION", `“${commit}” is not a published version: pick one from the file's history.`);
  const repo = repoFor(dataDir, tree);
  try {
    return (await git(repo, ["cat-file", "blob", `${commit}:${path}`])).stdout;
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    throw new DomainError("NOT_FOUND", "NO_VERSION", `${path} was not published in version ${commit.slice(0, 7)}: pick one of its published versions.`);
  }
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
