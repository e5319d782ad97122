// The tree's dependency status as the Tools page shows it (R-deps-status): installing while an install runs, else
// how the last run ended (installed, unchanged, failed with its line, none), the log to read, and the dependency
// files left in the tree folder, which are never read. An install the page asks for runs in the background through
// the tree's host, which restarts on a fresh install so the next call imports what was installed.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { reportUnexpected } from "@/server/error-report";
import { env } from "@/server/env";
import { DEPS_BUDGET_S, depsPaths, depsRoot } from "@/server/host/deps";
import { resolveTree, workDirFor } from "@/server/host/command";
import { hostFor } from "@/server/host";
import { splitLog, type DepsRun } from "./deps-log";
import { DEPENDENCY_FILES } from "./project-names";

export type DepsState = "installing" | "installed" | "unchanged" | "failed" | "none" | "interrupted" | "never";

export type DepsStatus = {
  state: DepsState;
  /** The folder the dependency files are read from. */
  root: string;
  /** The last run as its log line says it, or null before the first. */
  last: DepsRun | null;
  /** Dependency files' names inside the tree folder, never read, and the sentence saying to move them. */
  misplaced: string[];
  note: string | null;
  log: { path: string; text: string; truncated: boolean };
};

/** What of the log the page is sent: its end, where the outcome and the runs are. */
export const LOG_SHOWN_BYTES = 64 * 1024;

// On globalThis: Next bundles its entry points apart, and an install started by one must be seen by the other.
const holder = globalThis as typeof globalThis & { __quiverDepsInstalls?: Map<string, Promise<void>> };
const running = (holder.__quiverDepsInstalls ??= new Map());

/** The tree as the host names its work folder: symlink-free where it exists. */
function keyOf(tree: string): string {
  try {
    return resolveTree(tree);
  } catch {
    return path.resolve(tree);
  }
}

export function misplacedIn(tree: string): { misplaced: string[]; note: string | null } {
  const folder = path.basename(path.resolve(tree));
  const misplaced = DEPENDENCY_FILES.filter((name) => existsSync(path.join(tree, name))).map((name) => `${folder}/${name}`);
  if (misplaced.length === 0) return { misplaced, note: null };
  const one = misplaced.length === 1;
  const note = `${misplaced.join(", ")} ${one ? "is not a dependency file" : "are not dependency files"}: dependency files sit at the root of the checkout beside ${folder}/, so move ${one ? "it" : "them"} to ${depsRoot(tree)}/.`;
  return { misplaced, note };
}

async function readTail(file: string): Promise<{ text: string; truncated: boolean; mtimeMs: number } | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  try {
    const { size, mtimeMs } = await handle.stat();
    const start = Math.max(0, size - LOG_SHOWN_BYTES);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    return { text: buffer.toString("utf8"), truncated: start > 0, mtimeMs };
  } finally {
    await handle.close();
  }
}

export async function depsStatus(tree: string, dataDir = env().dataDir): Promise<DepsStatus> {
  const { log } = depsPaths(workDirFor(keyOf(tree), path.resolve(dataDir)));
  const read = await readTail(log);
  const parsed = read ? splitLog(read.text) : null;
  const last = parsed?.runs.at(-1) ?? null;
  let state: DepsState = last?.status ?? "never";
  if (running.has(keyOf(tree))) state = "installing";
  else if (read && parsed && !parsed.finished) {
    // Another process (the CLI, another studio) may be installing; past its budget it stopped without a word.
    state = Date.now() - read.mtimeMs < (DEPS_BUDGET_S + 60) * 1000 ? "installing" : "interrupted";
  }
  return {
    state,
    root: depsRoot(tree),
    last,
    ...misplacedIn(tree),
    log: { path: log, text: read?.text ?? "", truncated: read?.truncated ?? false },
  };
}

/** Starts an install in the background unless one is under way; whether this call started it. */
export function startInstall(tree: string): boolean {
  const key = keyOf(tree);
  if (running.has(key)) return false;
  const job = hostFor(tree)
    .installDeps()
    .then(
      () => undefined,
      (error: unknown) => void reportUnexpected(error, "installing the tree's dependencies"),
    )
    .finally(() => running.delete(key));
  running.set(key, job);
  return true;
}

/** The install under way, for a test (or a shutdown) to wait on. */
export function installUnderWay(tree: string): Promise<void> | null {
  return running.get(keyOf(tree)) ?? null;
}
