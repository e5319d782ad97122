// Confinement (R-root-confine, R-root-confine-race): a path argument is resolved under the builder's root and refused
// outside it: an absolute path, a `..` that leaves the root, and a symbolic link anywhere on the way (the file or a parent
// folder). Every part is opened relative to the folder opened before it (beneath.ts), from the workspace down, so a
// folder swapped for a link while a call runs is refused, not followed.
import { constants } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { workspaceDir } from "./workspace";
import { holding, openFolder } from "./beneath";
import { Failure, Refusal } from "../handler";

export type Confined = {
  /** The path as given, for the sentences that quote it. */
  value: string;
  /** Its parts under the root, `.` and `..` applied; empty for the root itself. */
  parts: string[];
  /** The same path relative to the root, as the model is told it; "." for the root itself. */
  rel: string;
};

const ROOT_MISSING = "The root folder of this agent's files does not exist; ask the builder to create it or choose another root.";
const ROOT_LINK = "The root folder of this agent's files leads out of the studio's workspace through a link; ask the builder to choose a real folder inside it.";

/**
 * The root setting as the real folder it names, which must exist and lie inside the workspace (R-root-workspace: a
 * link made there after the builder saved the root could lead anywhere); a failure otherwise, which the builder fixes.
 */
async function realRoot(settings: Record<string, unknown>, dataDir: string): Promise<{ real: string; workspace: string }> {
  const root = settings.root;
  if (typeof root !== "string" || !path.isAbsolute(root)) {
    throw new Failure("This agent's files have no root folder; the builder sets one in the agent's filesystem settings.");
  }
  let real: string;
  try {
    real = await fs.realpath(root);
    if (!(await fs.stat(real)).isDirectory()) throw new Error("not a folder");
  } catch {
    throw new Failure(ROOT_MISSING);
  }
  const workspace = await fs.realpath(workspaceDir(dataDir)).catch(() => workspaceDir(dataDir));
  if (real !== workspace && !real.startsWith(workspace + path.sep)) throw new Failure(ROOT_LINK);
  return { real, workspace };
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

/** `value` as parts under the root; a refusal when it is absolute or climbs out. Links are refused as it is opened. */
export function confine(value: string): Confined {
  const parts = pathParts(value);
  return { value, parts, rel: parts.join("/") || "." };
}

/** The refusal for a link at part `index` of `target`. */
export function linkRefusal(target: Confined, index: number): Refusal {
  const shown = target.parts.slice(0, index + 1).join("/");
  return new Refusal(`“${target.value}” goes through a symbolic link (${shown}), which could lead out of the root folder; links are not followed, so give the path of the real file.`);
}

/** The folder of `target`'s first `count` parts (all of them by default), opened under the open root; caller closes. */
export function openUnder(root: FileHandle, target: Confined, count = target.parts.length, create = false): Promise<FileHandle> {
  return openFolder(root, target.parts.slice(0, count), (i) => linkRefusal(target, i), create);
}

/** `promise`, with a missing part (ENOENT, or a file where a folder should be: ENOTDIR) answered by `failure()`. */
export async function missingAs<T>(promise: Promise<T>, failure: (code: string) => Error): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw failure(code);
    throw error;
  }
}

/**
 * The root folder, open: the workspace by its real path, then each part of the root under it without following a
 * link (R-root-workspace), so a root swapped for a link after realRoot() looked at it is refused too.
 */
export async function openRoot(settings: Record<string, unknown>, dataDir: string): Promise<FileHandle> {
  const { real, workspace } = await realRoot(settings, dataDir);
  const base = await fs.open(workspace, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    const parts = path.relative(workspace, real).split(path.sep).filter(Boolean);
    const outside = () => new Failure(ROOT_LINK);
    return await missingAs(openFolder(base, parts, outside), () => new Failure(ROOT_MISSING));
  } finally {
    await base.close();
  }
}

/** Runs `work` with the open root, closed afterwards. */
export function withRoot<T>(ctx: { settings: Record<string, unknown>; dataDir: string }, work: (root: FileHandle) => Promise<T>): Promise<T> {
  return holding(openRoot(ctx.settings, ctx.dataDir), work);
}
