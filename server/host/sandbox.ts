// Bubblewrap around the tool host: whether it works on this machine (probed once), and what the host sees inside it.
// Edit when the sandbox's view of the machine changes: what is read-only, writable or hidden.
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

export type SandboxProbe = { bwrap: string; reason: null } | { bwrap: null; reason: string };

export type SandboxPaths = {
  /** The tool tree, writable inside. */
  treeDir: string;
  /** The host's own work folder, writable inside (its HOME, its site folder). */
  workDir: string;
  /** The studio's data folder (database, key file): hidden behind an empty tmpfs. */
  dataDir: string;
  /**
   * Folders of programs the sandbox runs (the tool host itself, an MCP server's package), bound read-only after
   * the private /tmp, so a checkout under /tmp still runs; one that holds the data folder keeps it hidden, since
   * the data folder's tmpfs comes after it, and one inside the data folder is bound back after that tmpfs.
   */
  programDirs?: string[];
};

const NOT_INSTALLED = "bubblewrap is not installed; the tool host runs unsandboxed: install the bubblewrap package";

/** The absolute path of an executable named `name` on `pathVar`, or null. */
export function findOnPath(name: string, pathVar: string): string | null {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next folder
    }
  }
  return null;
}

function tryBwrap(bwrap: string, pathVar: string): Promise<SandboxProbe> {
  const env: Record<string, string> = { PATH: pathVar };
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--unshare-pid", "--die-with-parent", "--new-session", "true"];
  return new Promise((resolve) => {
    execFile(bwrap, args, { timeout: 10_000, env: env as NodeJS.ProcessEnv }, (error, _stdout, stderr) => {
      if (!error) return resolve({ bwrap, reason: null });
      const why = String(stderr).trim().split("\n")[0] || error.message;
      resolve({
        bwrap: null,
        reason: `bubblewrap is installed but cannot create a sandbox here (${why}); the tool host runs unsandboxed: allow unprivileged user namespaces, or run Quiver where bubblewrap works`,
      });
    });
  });
}

const probes = new Map<string, Promise<SandboxProbe>>();

/** Whether bubblewrap is on `pathVar` and can start a sandbox; probed once per PATH and cached. */
export function probeSandbox(pathVar: string): Promise<SandboxProbe> {
  let probe = probes.get(pathVar);
  if (!probe) {
    const bwrap = findOnPath("bwrap", pathVar);
    probe = bwrap ? tryBwrap(bwrap, pathVar) : Promise.resolve({ bwrap: null, reason: NOT_INSTALLED });
    probes.set(pathVar, probe);
  }
  return probe;
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * bwrap's arguments up to and including `--`: the system read-only, a private /tmp, the tree and the work
 * folder writable, the data folder replaced by an empty tmpfs (the work folder inside it bound back).
 * Mounts apply in order, so a tree inside the data folder is bound after the data folder is hidden.
 */
export function bwrapArgs({ treeDir, workDir, dataDir, programDirs = [] }: SandboxPaths): string[] {
  const bindTree = ["--bind", treeDir, treeDir];
  const treeInData = isInside(treeDir, dataDir);
  const readOnly = (dirs: string[]) => dirs.flatMap((dir) => ["--ro-bind", dir, dir]);
  return [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    "--tmpfs", "/tmp",
    ...readOnly(programDirs.filter((dir) => !isInside(dir, dataDir))),
    ...(treeInData ? [] : bindTree),
    "--tmpfs", dataDir,
    "--bind", workDir, workDir,
    ...(treeInData ? bindTree : []),
    ...readOnly(programDirs.filter((dir) => isInside(dir, dataDir))),
    "--chdir", workDir,
    "--die-with-parent",
    "--unshare-pid",
    "--new-session",
    "--",
  ];
}
