// Descriptor-relative file access (R-root-confine-race). Node has no openat(), so each step names its file as
// /proc/self/fd/<fd of an open folder>/<name>: the kernel reaches the folder through the descriptor, not through a path,
// so a parent swapped for a link after it was opened redirects nothing, and O_NOFOLLOW refuses a link at <name> itself.
// Every call here takes an open folder and one plain name (never a "/" or ".."), and never follows a link.
import { constants, type Dirent, type Stats } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";

/** Opening flags that never follow a symbolic link in the last component, and never block on a FIFO. */
export const NO_FOLLOW = constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** A folder, and only a folder: a link there is ENOTDIR, as is a file. */
const FOLDER = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The path that reaches `name` in the open folder `dir`, or the folder itself. */
export function at(dir: FileHandle, name?: string): string {
  return name === undefined ? `/proc/self/fd/${dir.fd}` : `/proc/self/fd/${dir.fd}/${name}`;
}

/** `name` in `dir` as lstat sees it (a link is a link), or null when it is not there. */
export async function lstatAt(dir: FileHandle, name: string): Promise<Stats | null> {
  try {
    return await fs.lstat(at(dir, name));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

/** Opens the folder `name` in `dir`; a link there is `onLink()`, a missing name or a file the ENOENT/ENOTDIR error. */
export async function openChild(dir: FileHandle, name: string, onLink: () => Error): Promise<FileHandle> {
  try {
    return await fs.open(at(dir, name), FOLDER);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw onLink();
    // ENOTDIR is a link or a file: lstat tells which, and a folder there now means a link was swapped back meanwhile.
    const now = code === "ENOTDIR" ? await lstatAt(dir, name) : null;
    if (now?.isSymbolicLink() || now?.isDirectory()) throw onLink();
    throw error;
  }
}

/**
 * The folder `parts` names under the open folder `from`, reached one part at a time, each relative to the folder
 * opened before it; `from` stays open and the answer is a new handle to close. With `create`, missing folders are made
 * on the way. A link at part i is `onLink(i)`; a missing part or a file on the way is the ENOENT/ENOTDIR error.
 */
export async function openFolder(from: FileHandle, parts: string[], onLink: (index: number) => Error, create = false): Promise<FileHandle> {
  if (parts.length === 0) return fs.open(at(from, "."), FOLDER);
  let current = from;
  try {
    for (let i = 0; i < parts.length; i++) {
      const name = parts[i]!;
      let next: FileHandle;
      try {
        next = await openChild(current, name, () => onLink(i));
      } catch (error) {
        if (!create || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        await fs.mkdir(at(current, name)).catch((made: NodeJS.ErrnoException) => {
          if (made.code !== "EEXIST") throw made;
        });
        next = await openChild(current, name, () => onLink(i));
      }
      if (current !== from) await current.close();
      current = next;
    }
    return current;
  } catch (error) {
    if (current !== from) await current.close();
    throw error;
  }
}

/** Runs `work` with the handle, then closes it, whatever `work` did. */
export async function holding<T>(handle: FileHandle | Promise<FileHandle>, work: (handle: FileHandle) => Promise<T>): Promise<T> {
  const open = await handle;
  try {
    return await work(open);
  } finally {
    await open.close();
  }
}

/** The entries of an open folder, with their types as the folder records them (a link is a link). */
export function entriesOf(dir: FileHandle): Promise<Dirent[]> {
  return fs.readdir(at(dir), { withFileTypes: true });
}

/**
 * Empties the open folder `dir`, descending only into folders it opens itself without following a link, so a folder
 * swapped for a link meanwhile loses the link, never what it points to.
 */
export async function removeTree(dir: FileHandle): Promise<void> {
  for (const entry of await entriesOf(dir)) {
    if (entry.isDirectory()) {
      const child = await openChild(dir, entry.name, () => Object.assign(new Error("a link"), { code: "ELOOP" })).catch(() => null);
      if (child) {
        await holding(child, removeTree);
        const removed = await fs.rmdir(at(dir, entry.name)).then(() => true, () => false);
        if (removed) continue;
      }
    }
    await fs.unlink(at(dir, entry.name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  }
}
