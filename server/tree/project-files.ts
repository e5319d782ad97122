// The project files beside the tree (R-deps-edit): requirements.txt, pyproject.toml, setup.sh at the checkout's root
// and hooks/tools.py, read and saved for the Tools page by the rules tool files follow: a save names the version it
// started from and meets CONFLICT when the file changed underneath (R-save-compare-and-write), under the file's
// lock (R-save-one-at-a-time), written atomically. Only these names, and never through a link.
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { withFileLocks } from "./file-lock";
import { currentVersion, hashSource, TreeError, writeAtomic, type FileVersion } from "./files";
import { PROJECT_FILES, projectNameProblem, type ProjectFileName } from "./project-names";

export type ProjectFile = { name: ProjectFileName; present: boolean; changedAt: Date | null; size: number };

/** A project file's text; an absent file reads as empty, and saving it creates it. */
export type ProjectVersion = FileVersion & { present: boolean };

const ABSENT = { source: "", hash: hashSource("") };

/** The checkout's root: the tree folder's parent, where hooks/ also sits. */
export function projectRoot(tree: string): string {
  return path.dirname(path.resolve(tree));
}

async function lstatOrNull(file: string) {
  try {
    return await fs.lstat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * The file's absolute path under the root, refusing any other name, and a file or a hooks folder that is a link
 * (or not a plain file): a link would read or write somewhere else than the name says.
 */
export async function projectPath(tree: string, name: string): Promise<string> {
  const problem = projectNameProblem(name);
  if (problem) throw new TreeError("BAD_NAME", problem);
  const root = projectRoot(tree);
  const file = path.join(root, name);
  const folder = path.dirname(file);
  const notPlain = () =>
    new TreeError("BAD_NAME", `${name} in ${root} is a link or not a plain file, so the Tools page leaves it alone: replace it with a file.`);
  if (folder !== root) {
    const stat = await lstatOrNull(folder);
    if (stat && (stat.isSymbolicLink() || !stat.isDirectory())) throw notPlain();
  }
  const stat = await lstatOrNull(file);
  if (stat && (stat.isSymbolicLink() || !stat.isFile())) throw notPlain();
  return file;
}

export async function listProjectFiles(tree: string): Promise<ProjectFile[]> {
  const root = projectRoot(tree);
  return Promise.all(
    PROJECT_FILES.map(async (name) => {
      const stat = await lstatOrNull(path.join(root, name));
      const present = !!stat && stat.isFile();
      return { name, present, changedAt: present ? stat.mtime : null, size: present ? stat.size : 0 };
    }),
  );
}

export async function readProjectFile(tree: string, name: string): Promise<ProjectVersion> {
  const file = await projectPath(tree, name);
  let handle: fs.FileHandle;
  try {
    // O_NOFOLLOW: a link swapped in after the check above is refused rather than followed.
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { path: name, ...ABSENT, present: false };
    throw err;
  }
  try {
    const source = await handle.readFile("utf8");
    return { path: name, source, hash: hashSource(source), present: true };
  } finally {
    await handle.close();
  }
}

/**
 * Saves `source` over the version whose hash is `baseHash` (an absent file is the empty text, so a first save
 * creates it). Refused with CONFLICT, carrying what is on disk now, when the file changed since it was opened.
 */
export async function saveProjectFile(tree: string, name: string, source: string, baseHash: string): Promise<ProjectVersion> {
  const file = await projectPath(tree, name);
  const folder = path.dirname(file);
  await fs.mkdir(folder, { recursive: true });
  return withFileLocks(folder, [path.basename(file)], async (held) => {
    const current = (await currentVersion(file)) ?? ABSENT;
    if (current.hash !== baseHash) {
      throw new TreeError("CONFLICT", `${name} changed on disk since you opened it. Compare the two versions and merge them before saving.`, current);
    }
    await writeAtomic(file, source, held);
    return { path: name, source, hash: hashSource(source), present: true };
  });
}
