// Confinement (R-root-confine): a path argument is resolved under the builder's root and refused outside it: an absolute
// path, a `..` that leaves the root, and a symbolic link anywhere on the way (the file or a parent folder).
// An application boundary, not an OS sandbox: another process moving folders between this check and the open is not
// covered, which is why files are also opened with O_NOFOLLOW.
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { workspaceDir } from "./workspace";
import { Failure, Refusal } from "../handler";

/** Opening flags that never follow a symbolic link in the last component, and never block on a FIFO. */
export const NO_FOLLOW = constants.O_NOFOLLOW | constants.O_NONBLOCK;

export type Confined = {
  /** The absolute path on disk. */
  abs: string;
  /** The same path relative to the root, as the model is told it; "." for the root itself. */
  rel: string;
};

/**
 * The root setting as the real folder it names, which must exist and lie inside the workspace (R-root-workspace: a
 * link made there after the builder saved the root could lead anywhere); a failure otherwise, which the builder fixes.
 */
export async function rootFolder(settings: Record<string, unknown>, dataDir: string): Promise<string> {
  const root = settings.root;
  if (typeof root !== "string" || !path.isAbsolute(root)) {
    throw new Failure("This agent's files have no root folder; the builder sets one in the agent's filesystem settings.");
  }
  let real: string;
  try {
    real = await fs.realpath(root);
    if (!(await fs.stat(real)).isDirectory()) throw new Error("not a folder");
  } catch {
    throw new Failure("The root folder of this agent's files does not exist; ask the builder to create it or choose another root.");
  }
  const workspace = await fs.realpath(workspaceDir(dataDir)).catch(() => workspaceDir(dataDir));
  if (real !== workspace && !real.startsWith(workspace + path.sep)) {
    throw new Failure("The root folder of this agent's files leads out of the studio's workspace through a link; ask the builder to choose a real folder inside it.");
  }
  return real;
}

/** The parts of `value` after `.` and `..` are applied lexically; a refusal when it is absolute or climbs out. */
export function pathParts(value: string): string[] {
  if (value.includes("\0")) throw new Refusal("A path cannot hold a NUL character; give a plain relative path.");
  const given = value.replace(/\\/g, "/");
  if (given.startsWith("/") || /^[A-Za-z]:/.test(given) || given.startsWith("~")) {
    throw new Refusal(`“${value}” is an absolute path; give a path relative to the root folder, such as notes/today.md.`);
  }
  const parts: string[] = [];
  for (const part of given.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) throw new Refusal(`“${value}” leaves the root folder with ..; give a path inside it.`);
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return parts;
}

/**
 * `value` under `root`, every existing component checked with lstat: a symbolic link, the file's own or a parent
 * folder's, is refused. Components that do not exist yet (a file about to be written) end the walk.
 */
export async function confine(value: string, root: string): Promise<Confined> {
  const parts = pathParts(value);
  let current = root;
  for (let i = 0; i < parts.length; i++) {
    current = path.join(current, parts[i]!);
    let stat;
    try {
      stat = await fs.lstat(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") break;
      throw error;
    }
    if (stat.isSymbolicLink()) {
      const shown = parts.slice(0, i + 1).join("/");
      throw new Refusal(`“${value}” goes through a symbolic link (${shown}), which could lead out of the root folder; links are not followed, so give the path of the real file.`);
    }
  }
  return { abs: path.join(root, ...parts), rel: parts.join("/") || "." };
}
