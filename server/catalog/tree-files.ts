// The files of the tool tree as they sit on disk: what /tools lists before the tool host has
// read them (R-file-flat, R-file-helper): only `tools/*.py` counts, subdirectories are not scanned, `_x.py` is a helper.
import fs from "node:fs/promises";
import path from "node:path";

export type TreeFile = {
  /** Path relative to the tree, e.g. "notes.py". */
  path: string;
  /** A helper is imported by the others and never offers tools. */
  helper: boolean;
  bytes: number;
  /** Last change, as an ISO date. */
  changedAt: string;
};

export type TreeListing = { dir: string; exists: boolean; files: TreeFile[] };

export async function listTreeFiles(dir: string): Promise<TreeListing> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { dir, exists: false, files: [] };
    throw err;
  }
  const files = await Promise.all(
    entries
      .filter((entry) => entry.isFile() && entry.name.endsWith(".py"))
      .map(async (entry): Promise<TreeFile> => {
        const stat = await fs.stat(path.join(dir, entry.name));
        return {
          path: entry.name,
          helper: entry.name.startsWith("_"),
          bytes: stat.size,
          changedAt: stat.mtime.toISOString(),
        };
      }),
  );
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { dir, exists: true, files };
}
