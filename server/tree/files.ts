// Reading and writing the tree's files for the editor: every save names the version it started from,
// and a file that changed on disk since is never overwritten. Writes are atomic (temp file + rename), and
// every change of a file holds that file's lock (file-lock.ts).
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { DomainError, type ErrorKind } from "@/server/errors";
import { withFileLocks, type StillHeld } from "./file-lock";
import { fileNameProblem } from "./names";

export type TreeErrorCode = "BAD_NAME" | "NOT_FOUND" | "EXISTS" | "CONFLICT";

const kinds: Record<TreeErrorCode, ErrorKind> = {
  BAD_NAME: "BAD_REQUEST",
  NOT_FOUND: "NOT_FOUND",
  EXISTS: "CONFLICT",
  CONFLICT: "CONFLICT",
};

export class TreeError extends DomainError {
  constructor(
    readonly code: TreeErrorCode,
    message: string,
    /** On CONFLICT: the version on disk now, for the editor's diff. */
    readonly current?: { source: string; hash: string },
  ) {
    super(kinds[code], code, message, current ? { current } : undefined);
  }
}

export type FileVersion = { path: string; source: string; hash: string };

export function hashSource(source: string): string {
  return createHash("sha256").update(source, "utf8").digest("hex");
}

/** The absolute path of a tree file, refusing names that are not flat module files. */
export function treePath(tree: string, name: string): string {
  const problem = fileNameProblem(name);
  if (problem) throw new TreeError("BAD_NAME", problem);
  return path.join(tree, name);
}

export async function readFile(tree: string, name: string): Promise<FileVersion> {
  try {
    const source = await fs.readFile(treePath(tree, name), "utf8");
    return { path: name, source, hash: hashSource(source) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new TreeError("NOT_FOUND", `There is no ${name} in the tool tree; it may have been renamed or deleted.`);
    }
    throw err;
  }
}

export async function currentVersion(file: string): Promise<{ source: string; hash: string } | null> {
  try {
    const source = await fs.readFile(file, "utf8");
    return { source, hash: hashSource(source) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * Writes `source` to a temp file and moves it into place: readers see the old text or the new, never half.
 * `replace: false` (a new file) uses link, which fails rather than replace a file that appeared meanwhile.
 */
export async function writeAtomic(file: string, source: string, held: StillHeld, replace = true): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  const handle = await fs.open(temp, "wx");
  try {
    await handle.writeFile(source, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  let moved = false;
  try {
    held();
    if (replace) await fs.rename(temp, file);
    else await fs.link(temp, file);
    moved = replace;
  } finally {
    if (!moved) await fs.rm(temp, { force: true });
  }
}

/** Runs a change of the named files under their lock (R-save-one-at-a-time); a tree folder that is gone is `missing`. */
async function changing<T>(tree: string, names: string[], missing: () => TreeError, work: (held: StillHeld) => Promise<T>): Promise<T> {
  try {
    return await withFileLocks(tree, names, work);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw missing();
    throw err;
  }
}

/**
 * Saves `source` over the version whose hash is `baseHash`. Refused with CONFLICT, carrying what is on
 * disk now, when the file changed since (another tab, a git pull), so the editor can show a diff. The
 * compare and the write happen under the file's lock, so of two saves from one version exactly one is
 * written, also across studio processes sharing the tree (R-save-compare-and-write).
 */
export async function saveFile(tree: string, name: string, source: string, baseHash: string): Promise<FileVersion> {
  const file = treePath(tree, name);
  const deleted = () => new TreeError("NOT_FOUND", `${name} was deleted or renamed since you opened it; save it under a new name.`);
  return changing(tree, [name], deleted, async (held) => {
    const current = await currentVersion(file);
    if (!current) throw deleted();
    if (current.hash !== baseHash) {
      throw new TreeError(
        "CONFLICT",
        `${name} changed on disk since you opened it. Compare the two versions and merge them before saving.`,
        current,
      );
    }
    await writeAtomic(file, source, held);
    return { path: name, source, hash: hashSource(source) };
  });
}

export async function createFile(tree: string, name: string, source: string): Promise<FileVersion> {
  const file = treePath(tree, name);
  await fs.mkdir(tree, { recursive: true });
  const exists = () => new TreeError("EXISTS", `${name} already exists; open it or choose another name.`);
  return withFileLocks(tree, [name], async (held) => {
    if (await currentVersion(file)) throw exists();
    try {
      await writeAtomic(file, source, held, false);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") throw exists();
      throw err;
    }
    return { path: name, source, hash: hashSource(source) };
  });
}

/**
 * Moves `from` to `to`, refused when `to` exists. `alongside` (what belongs to the file in the database: its drafts
 * and examples) runs under both names' locks once the file is at its new name and before the old name goes; when it
 * fails the new name is taken away again, so the file never moves without what follows it, nor it without the file.
 */
export async function renameFile(tree: string, from: string, to: string, alongside?: () => Promise<void>): Promise<void> {
  const source = treePath(tree, from);
  const target = treePath(tree, to);
  const gone = () => new TreeError("NOT_FOUND", `There is no ${from} in the tool tree.`);
  await changing(tree, [from, to], gone, async (held) => {
    if (await currentVersion(target)) throw new TreeError("EXISTS", `${to} already exists; choose another name.`);
    held();
    try {
      // link + unlink never replaces a file that appeared at the target in the meantime.
      await fs.link(source, target);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw gone();
      if (code === "EEXIST") throw new TreeError("EXISTS", `${to} already exists; choose another name.`);
      throw err;
    }
    try {
      await alongside?.();
    } catch (err) {
      await fs.unlink(target);
      throw err;
    }
    await fs.unlink(source);
  });
}

export async function deleteFile(tree: string, name: string): Promise<void> {
  const file = treePath(tree, name);
  const gone = () => new TreeError("NOT_FOUND", `There is no ${name} in the tool tree.`);
  await changing(tree, [name], gone, async (held) => {
    held();
    try {
      await fs.unlink(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw gone();
      throw err;
    }
  });
}

/** A new tool file's first text: a working example, so the preview has something to show at once. */
export function starterSource(name: string): string {
  const stem = name.replace(/\.py$/, "");
  return `"""${stem.replace(/_/g, " ")}: say in one line what these tools are for."""


def hello(name: str) -> str:
    """Greet someone by name; replace this with your first tool.

    Args:
        name: Who to greet.
    """
    return f"Hello, {name}!"
`;
}
