// A tree's dependencies, installed by `run.py deps` into the tree's site folder (stamped, budgeted and logged by
// the host, R-host-deps); the host started afterwards gets that folder with --site. Edit when the deps step changes.
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
});

export type DepsSummary = z.infer<typeof summarySchema>;

export type DepsOptions = HostOptions & {
  /** Seconds shared by pip and setup.sh (R-host-deps: 240). */
  budgetS?: number;
  /** Extra arguments for pip, e.g. ["--no-index", "--find-links", dir]. */
  pipArgs?: string[];
};

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
  const { spec } = await confine(base, { treeDir: tree, workDir, dataDir }, options.sandbox ?? true);
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
          seconds: (Date.now() - started) / 1000,
          error: `The dependency step answered no summary (${said}); read ${log}, fix what it says, and install again.`,
        });
      },
    );
    run.stdin?.end();
  });
}
