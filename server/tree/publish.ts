// Publish: check the whole tree in a fresh interpreter, then commit its files as one version to the studio's
// repository, and to the database, where every studio process reads it (R-version-stored). Refused, with the first
// error of each failing file, while any file has one (R-tree-publish). Edit when what a publish records or checks changes.
import { statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/db/client";
import { HostClient } from "@/server/host/client";
import { hostCommand } from "@/server/host/command";
import { DomainError } from "@/server/errors";
import { STUDIO_IDENTITY, ensureRepo, git, headCommit, repoFor, type Identity, type Repo } from "./git";
import { DEPENDENCY_FILES, HOOK_FILE, isProjectFile } from "./project-names";
import { storeVersion } from "./versions";

export type TreeProblem = { path: string; line: number | null; message: string };

export type PublishResult = {
  /** The new commit's full hash. */
  commit: string;
  message: string;
  /** The files the version holds, relative to the tree. */
  files: string[];
  /** When it was published, as an ISO date. */
  at: string;
  /** Its number among the studio's published versions (1, 2, …); null when no database was given. */
  version: number | null;
};

export type PublishOptions = {
  tree: string;
  dataDir: string;
  message: string;
  identity?: Identity;
  python?: string;
  /** Where the version is stored for every process to run (R-version-stored); a script may publish without one. */
  db?: Db;
};

/**
 * What a version holds: the top-level tool and helper files, and the dependency files of the checkout's root beside
 * the tree folder (R-deps-root), under their own names (a tool file's name ends in .py, theirs never do), and the
 * call hook `hooks/tools.py`, since a version run elsewhere must be decided on as here (R-version-stored); no
 * subfolder, no cache, and no `tools/requirements.txt`, which is not a dependency file.
 */
export async function publishableFiles(tree: string): Promise<string[]> {
  const entries = await fs.readdir(tree, { withFileTypes: true });
  const own = entries.filter((entry) => entry.isFile() && entry.name.endsWith(".py") && !entry.name.startsWith(".")).map((entry) => entry.name);
  const root = path.dirname(path.resolve(tree));
  const deps = [...DEPENDENCY_FILES, HOOK_FILE].filter((name) => statSync(path.join(root, name), { throwIfNoEntry: false })?.isFile());
  return [...own, ...deps].sort();
}

/**
 * Imports every file of the tree in a new host process of its own (not the studio's long-lived one, whose
 * modules may be left over from earlier versions) and answers the first error of each file that has any:
 * one broken module reports itself once per file that touched it, and its first words are the useful ones.
 */
export async function checkTree(tree: string, options: { dataDir: string; python?: string }): Promise<TreeProblem[]> {
  const command = await hostCommand(tree, { sandbox: false, dataDir: options.dataDir, python: options.python });
  let client: HostClient;
  try {
    client = await HostClient.connect(command);
  } catch (error) {
    throw new DomainError("PRECONDITION_FAILED", "HOST_UNAVAILABLE", `The tree could not be checked, so nothing was published: ${(error as Error).message}`);
  }
  try {
    const catalog = await client.catalog();
    return catalog.files.flatMap((file) => {
      const first = file.errors[0];
      return first ? [{ path: file.path, line: first.line, message: first.message }] : [];
    });
  } finally {
    await client.close();
  }
}

/** Put exactly `files` in the index and answer the tree object they make: how two states are compared cheaply. */
async function stage(repo: Repo, files: string[]): Promise<string> {
  await git(repo, ["read-tree", "--empty"]);
  const own = files.filter((file) => !isProjectFile(file));
  if (own.length > 0) await git(repo, ["update-index", "--add", "--", ...own]);
  // The root's files sit outside the work tree: stored by content, under their own names.
  const root = path.dirname(repo.workTree);
  for (const file of files.filter(isProjectFile)) {
    const blob = (await git(repo, ["hash-object", "-w", "--no-filters", "--", path.join(root, file)])).stdout.trim();
    await git(repo, ["update-index", "--add", "--cacheinfo", `100644,${blob},${file}`]);
  }
  return (await git(repo, ["write-tree"])).stdout.trim();
}

function refuseProblems(problems: TreeProblem[]): never {
  const names = problems.map((problem) => problem.path);
  const list = names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;
  const count = problems.length === 1 ? "1 file has errors" : `${problems.length} files have errors`;
  throw new DomainError("PRECONDITION_FAILED", "TREE_HAS_ERRORS", `Not published: ${count} (${list}). Fix the first error of each, then publish again.`, {
    errors: problems,
  });
}

async function publishNow(options: PublishOptions, message: string): Promise<PublishResult> {
  const repo = repoFor(options.dataDir, options.tree);
  try {
    if (!(await fs.stat(repo.workTree)).isDirectory()) throw new Error("not a folder");
  } catch {
    throw new DomainError("NOT_FOUND", "NO_TREE", `The tool tree ${repo.workTree} is not a folder: create it and add a tool file, then publish.`);
  }
  const files = await publishableFiles(repo.workTree);
  if (!files.some((file) => file.endsWith(".py"))) {
    throw new DomainError("PRECONDITION_FAILED", "EMPTY_TREE", "The tool tree has no Python files yet: create a tool file, then publish.");
  }
  await ensureRepo(repo);
  const head = await headCommit(repo);
  const checked = await stage(repo, files);
  if (head && (await git(repo, ["rev-parse", `${head}^{tree}`])).stdout.trim() === checked) {
    const subject = (await git(repo, ["log", "-1", "--format=%s", head])).stdout.trim();
    throw new DomainError("PRECONDITION_FAILED", "NOTHING_CHANGED", `Nothing changed since the last publish (${head.slice(0, 7)}, “${subject}”): edit a file first.`, {
      commit: head,
    });
  }

  const problems = await checkTree(repo.workTree, options);
  if (problems.length > 0) refuseProblems(problems);

  // What was checked is what gets committed: a save while the host was importing would slip past the check.
  const finalFiles = await publishableFiles(repo.workTree);
  if ((await stage(repo, finalFiles)) !== checked) {
    throw new DomainError("CONFLICT", "CHANGED_WHILE_CHECKING", "A file changed while the tree was being checked: publish again to check the new version.");
  }
  const date = new Date(Math.floor(Date.now() / 1000) * 1000);
  const identity = options.identity ?? STUDIO_IDENTITY;
  const parents = head ? ["-p", head] : [];
  const commit = (await git(repo, ["commit-tree", checked, ...parents, "-m", message], { identity, date })).stdout.trim();
  // Naming the old head makes a concurrent publish from another process fail instead of being lost.
  await git(repo, ["update-ref", "-m", "publish", "HEAD", commit, head ?? ""]);
  const version = options.db ? await storeVersion(options.db, { commit, message, identity, files: await filesOf(repo, commit, finalFiles), at: date }) : null;
  return { commit, message, files: finalFiles, at: date.toISOString(), version };
}

/** The committed text of each file, as the version in the database keeps it. */
async function filesOf(repo: Repo, commit: string, files: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of files) out[file] = (await git(repo, ["cat-file", "blob", `${commit}:${file}`])).stdout;
  return out;
}

// Publishes of one repository run one at a time: they share its index.
const queues = new Map<string, Promise<unknown>>();

/** Check the tree and commit it with `message`; refused with a DomainError saying what to do instead. */
export function publish(options: PublishOptions): Promise<PublishResult> {
  const message = options.message.trim();
  if (!message) {
    return Promise.reject(new DomainError("BAD_REQUEST", "NO_MESSAGE", "Say in a few words what changed: a publish needs a message."));
  }
  const key = repoFor(options.dataDir, options.tree).gitDir;
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(() => publishNow(options, message));
  queues.set(key, next);
  void next.finally(() => {
    if (queues.get(key) === next) queues.delete(key);
  }).catch(() => {});
  return next;
}
