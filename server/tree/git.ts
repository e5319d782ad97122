// The small git runner behind Publish and History: git run without a shell, against the studio's own bare
// repository whose work tree is the tool tree, so the user's repository around tools/ is never touched.
// Edit when publishing needs another git command or the identity it commits under changes.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { childBaseEnv } from "@/server/env";
import { DomainError } from "@/server/errors";

export type Identity = { name: string; email: string };

/** Who a publish is by when the caller names nobody (a script, a test); set explicitly so a machine with no git identity still commits. */
export const STUDIO_IDENTITY: Identity = { name: "Quiver", email: "quiver@localhost" };

export type Repo = { gitDir: string; workTree: string };

/** The studio's repository of published versions: `<dataDir>/tree.git`, its work tree the tool tree. */
export function repoFor(dataDir: string, tree: string): Repo {
  return { gitDir: path.join(path.resolve(dataDir), "tree.git"), workTree: path.resolve(tree) };
}

/** A git failure, with git's own words for the log and a sentence for the person. */
export class GitError extends DomainError {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super("PRECONDITION_FAILED", "GIT_FAILED", message, { stderr });
  }
}

type RunOptions = {
  identity?: Identity;
  /** When the commit is dated, so the publish can say when without asking git again. */
  date?: Date;
  /** Exit codes that are an answer rather than a failure (rev-parse --verify of a missing ref answers 1). */
  okCodes?: number[];
};

export type GitResult = { code: number; stdout: string; stderr: string };

function gitEnv(identity: Identity, date?: Date): Record<string, string> {
  const out: Record<string, string> = {
    ...childBaseEnv(),
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
    // The machine's git settings (hooks path, autocrlf, a pager) must not change what a publish records.
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
  };
  if (date) {
    const stamp = `${Math.floor(date.getTime() / 1000)} +0000`;
    out.GIT_AUTHOR_DATE = stamp;
    out.GIT_COMMITTER_DATE = stamp;
  }
  return out;
}

/** Run `git --git-dir=… --work-tree=… <args>`; a non-zero exit (other than okCodes) is a GitError. */
export function git(repo: Repo, args: string[], options: RunOptions = {}): Promise<GitResult> {
  return run([`--git-dir=${repo.gitDir}`, `--work-tree=${repo.workTree}`, ...args], repo.workTree, options);
}

function run(args: string[], cwd: string, options: RunOptions): Promise<GitResult> {
  const what = args.find((arg) => !arg.startsWith("-")) ?? "";
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      {
        cwd,
        env: gitEnv(options.identity ?? STUDIO_IDENTITY, options.date) as NodeJS.ProcessEnv,
        maxBuffer: 64 * 1024 * 1024,
        timeout: 60_000,
        encoding: "utf8",
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const code: unknown = (error as { code?: unknown }).code;
        if (code === "ENOENT" && !existsSync(cwd)) {
          return reject(new GitError(`The folder ${cwd} does not exist: create the tool tree, then try again.`, ""));
        }
        if (code === "ENOENT") {
          return reject(new GitError("Publishing needs git, and git is not installed on this machine: install it, then publish again.", ""));
        }
        if (typeof code === "number" && options.okCodes?.includes(code)) return resolve({ code, stdout, stderr });
        const said = stderr.trim().split("\n").slice(-3).join(" ");
        reject(new GitError(`git ${what} failed: ${said || error.message}`, stderr));
      },
    );
  });
}

/** Whether the repository exists yet (it is created by the first publish). */
export function repoExists(repo: Repo): boolean {
  return existsSync(path.join(repo.gitDir, "HEAD"));
}

/** Create the bare repository on first use. */
export async function ensureRepo(repo: Repo): Promise<void> {
  if (repoExists(repo)) return;
  await fs.mkdir(path.dirname(repo.gitDir), { recursive: true });
  await run(["init", "--bare", "--quiet", "--initial-branch=main", repo.gitDir], path.dirname(repo.gitDir), {});
}

/** The commit HEAD names, or null before the first publish. */
export async function headCommit(repo: Repo): Promise<string | null> {
  if (!repoExists(repo)) return null;
  const result = await git(repo, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { okCodes: [1] });
  return result.code === 0 ? result.stdout.trim() : null;
}
