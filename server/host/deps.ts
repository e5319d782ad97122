// A tree's dependencies, installed by `run.py deps` into the tree's site folder (stamped, budgeted and logged by
// the host, R-host-deps) from the files at the root of the checkout, the tree folder's parent (R-deps-root); the
// host started afterwards gets that folder with --site. Edit when the deps step changes.
import { execFile } from "node:child_process";
import path from "node:path";
import { z } from "zod";
import { confine, hostEnv, prepareTree, toolhostScript, type HostOptions } from "./command";

export const DEPS_BUDGET_S = 240;

const summarySchema = z.object({
  status: z.enum(["installed", "unchanged", "failed", "none"]),
  log: z.string(),
  seconds: z.number(),
  error: z.string().nullable().default(null),
  /** The folder the dependency files were read from: the tree folder's parent. */
  root: z.string(),
  /** The dependency files found there, in the order they install. */
  files: z.array(z.string()).default([]),
  /** Dependency files' names inside the tree folder (`tools/requirements.txt`): never read, to be moved. */
  misplaced: z.array(z.string()).default([]),
  /** The sentence saying to move them, when there are any. */
  note: z.string().nullable().default(null),
});

export type DepsSummary = z.infer<typeof summarySchema>;

export type DepsOptions = HostOptions & {
  /** Seconds shared by pip and setup.sh (R-host-deps: 240). */
  budgetS?: number;
  /** Extra arguments for pip, e.g. ["--no-index", "--find-links", dir]. */
  pipArgs?: string[];
};

/** The checkout root the dependency files sit in: beside the tree folder, as hooks/ is (R-deps-root). */
export function depsRoot(tree: string): string {
  return path.dirname(path.resolve(tree));
}

/** The paths the deps step writes for a tree: the site folder the host adds to sys.path, and the readable log. */
export function depsPaths(workDir: string) {
  return { siteDir: path.join(workDir, "site"), log: path.join(workDir, "deps.log") };
}

/** Run `run.py deps` for the tree and return its one-line summary; a step that says nothing is a failure. */
export async function installDeps(treeDir: string, options: DepsOptions = {}): Promise<DepsSummary> {
  const { tree, dataDir, workDir, python } = prepareTree(treeDir, options);
  const { siteDir, log } = depsPaths(workDir);
  const budget = options.budgetS ?? DEPS_BUDGET_S;
  const args = [toolhostScript(), "deps", "--tree", tree, "--site", siteDir, "--log", log, "--budget", String(budget)];
  // "=" keeps argparse from reading a pip option such as --no-index as one of run.py's own.
  for (const arg of options.pipArgs ?? []) args.push(`--pip-arg=${arg}`);
  const base = { command: python, args, cwd: workDir, env: hostEnv(workDir) };
  // The root is bound read-only like a program folder: the host's private /tmp would hide a checkout under /tmp.
  const paths = { treeDir: tree, workDir, dataDir, programDirs: [depsRoot(tree)] };
  const { spec } = await confine(base, paths, options.sandbox ?? true);
  const started = Date.now();
  return new Promise((resolve) => {
    const run = execFile(
      spec.command,
      spec.args,
      // The host keeps its own budget; this bound only catches a step that hangs past it.
      { cwd: spec.cwd, env: spec.env as NodeJS.ProcessEnv, timeout: (budget + 60) * 1000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const lastLine = String(stdout).trim().split("\n").pop() ?? "";
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(lastLine);
        } catch {
          // no summary line: reported below with the step's stderr
        }
        const summary = summarySchema.safeParse(parsed);
        if (summary.success) return resolve(summary.data);
        const said = String(stderr).trim().split("\n").slice(-3).join(" ") || error?.message || "no output";
        resolve({
          status: "failed",
          log,
          root: depsRoot(tree),
          files: [],
          misplaced: [],
          note: null,
          seconds: (Date.now() - started) / 1000,
          error: `The dependency step answered no summary (${said}); read ${log}, fix what it says, and install again.`,
        });
      },
    );
    run.stdin?.end();
  });
}
