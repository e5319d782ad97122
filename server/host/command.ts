// The command that starts a tool host for one tree: run.py's arguments, resource limits, work folder, scrubbed env.
// Edit when run.py gains an option or the host's environment changes (never add studio settings or keys to it).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { childBaseEnv, env } from "../env";
import { bwrapArgs, probeSandbox, type SandboxPaths } from "./sandbox";

export type Limits = {
  /** Address space, in MB (RLIMIT_AS). */
  addressSpaceMb: number;
  /** CPU time, in seconds (RLIMIT_CPU). */
  cpuSeconds: number;
  /** Processes of the user (RLIMIT_NPROC): counted across the whole user, so generous. */
  processes: number;
  /** Open files (RLIMIT_NOFILE). */
  openFiles: number;
  /** Resident MB over which the host is replaced after a call (R-host-memory). */
  softMemoryMb: number;
};

/**
 * The address-space cap is what ends a runaway allocation in a MemoryError; the soft limit, well under it, is
 * what a host may keep between calls before a fresh one (about 30 MB) takes over (R-host-memory).
 */
export const DEFAULT_LIMITS: Limits = { addressSpaceMb: 2048, cpuSeconds: 3600, processes: 4096, openFiles: 1024, softMemoryMb: 512 };

export type HostOptions = {
  /** Run inside bubblewrap where it works (default true); false forces the unsandboxed command. */
  sandbox?: boolean;
  /** The studio's data folder; defaults to env().dataDir. */
  dataDir?: string;
  /** The Python interpreter; defaults to env().python. */
  python?: string;
  limits?: Partial<Limits>;
  /** Seconds between the host's checks for changed files (it announces them with list_changed). */
  watchIntervalS?: number;
};

export type SpawnSpec = { command: string; args: string[]; cwd: string; env: Record<string, string> };

export type HostCommand = SpawnSpec & {
  treeDir: string;
  workDir: string;
  sandboxed: boolean;
  /** Why the host is not sandboxed, as a sentence; null when it is. */
  reason: string | null;
};

/** The repository root: server/host/ sits two folders below it (the current directory where bundling moved this file). */
export function packageRoot(): string {
  const here = import.meta.dirname;
  if (here && existsSync(path.join(here, "..", "toolhost"))) return path.resolve(here, "..", "..");
  return process.cwd();
}

export function toolhostScript(): string {
  return path.join(packageRoot(), "server", "toolhost", "run.py");
}

/** The tree as an absolute, symlink-free path; a sentence when it is not a folder. */
export function resolveTree(treeDir: string): string {
  const abs = path.resolve(treeDir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    throw new Error(`The tool tree ${abs} is not a folder: create it, or name the folder that holds your tool files.`);
  }
  return realpathSync(abs);
}

/** The per-tree work folder: `<dataDir>/work/<first 16 hex of sha256(tree path)>`. */
export function workDirFor(treeDir: string, dataDir: string): string {
  const hash = createHash("sha256").update(treeDir).digest("hex").slice(0, 16);
  return path.join(dataDir, "work", hash);
}

/** The host's whole environment: the base a child may inherit, HOME in its work folder, and Python's two switches. */
export function hostEnv(workDir: string): Record<string, string> {
  return { ...childBaseEnv(), HOME: workDir, PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1" };
}

export function serveArgs(script: string, treeDir: string, limits: Limits, extra: { siteDir?: string; watchIntervalS?: number } = {}): string[] {
  const args = [script, "serve", "--tree", treeDir];
  if (extra.watchIntervalS !== undefined) args.push("--watch-interval", String(extra.watchIntervalS));
  args.push(
    "--limit-as", String(limits.addressSpaceMb),
    "--limit-cpu", String(limits.cpuSeconds),
    "--limit-nofile", String(limits.openFiles),
    "--limit-nproc", String(limits.processes),
    "--memory-soft", String(limits.softMemoryMb),
  );
  if (extra.siteDir) args.push("--site", extra.siteDir);
  return args;
}

/** Resolve the tree and data folders and create the work folder: what both the host and `deps` need. */
export function prepareTree(treeDir: string, options: HostOptions = {}) {
  const tree = resolveTree(treeDir);
  const dataDir = path.resolve(/* turbopackIgnore: true */ options.dataDir ?? env().dataDir);
  const workDir = workDirFor(tree, dataDir);
  mkdirSync(workDir, { recursive: true, mode: 0o700 });
  return { tree, dataDir, workDir, siteDir: path.join(workDir, "site"), python: options.python ?? env().python };
}

/** Wrap `spec` in bubblewrap when asked and possible; otherwise say why not. */
export async function confine(spec: SpawnSpec, paths: SandboxPaths, sandbox: boolean) {
  if (!sandbox) {
    return { spec, sandboxed: false, reason: "the sandbox is turned off for this host; the tool host runs unsandboxed" };
  }
  const probe = await probeSandbox(spec.env.PATH ?? "");
  if (!probe.bwrap) return { spec, sandboxed: false, reason: probe.reason };
  const programDirs = [path.dirname(toolhostScript()), ...(paths.programDirs ?? [])];
  const wrapped = { ...spec, command: probe.bwrap, args: [...bwrapArgs({ ...paths, programDirs }), spec.command, ...spec.args] };
  return { spec: wrapped, sandboxed: true, reason: null };
}

/** The command that starts `run.py serve` for a tree, confined as far as this machine allows. */
export async function hostCommand(treeDir: string, options: HostOptions = {}): Promise<HostCommand> {
  const { tree, dataDir, workDir, siteDir, python } = prepareTree(treeDir, options);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const args = serveArgs(toolhostScript(), tree, limits, {
    siteDir: existsSync(/* turbopackIgnore: true */ siteDir) ? siteDir : undefined,
    watchIntervalS: options.watchIntervalS,
  });
  const base: SpawnSpec = { command: python, args, cwd: workDir, env: hostEnv(workDir) };
  const { spec, sandboxed, reason } = await confine(base, { treeDir: tree, workDir, dataDir }, options.sandbox ?? true);
  return { ...spec, treeDir: tree, workDir, sandboxed, reason };
}
