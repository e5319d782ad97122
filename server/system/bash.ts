// system:bash: one shell command per call (run_bash, R-sys-bash), bounded at 300 s of its own, in the agent's working
// folder, with the studio's environment scrubbed and, where bubblewrap works, sandboxed as the tool host is.
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { childBaseEnv } from "@/server/env";
import { failed, handler, integer, ok, text } from "./handler";
import { runCommand, stoppedResult, useSandbox } from "./process";
import { inputs, operation, type SystemSource } from "./types";

/** R-sys-timeouts: run_bash has 300 seconds; the command's own timeout argument ends it first. */
export const BASH_MAX_SECONDS = 300;
const DEFAULT_SECONDS = 120;

const runBash = handler(async (args, ctx) => {
  const command = text(args, "command");
  const seconds = integer(args, "timeout", DEFAULT_SECONDS, 1, BASH_MAX_SECONDS);
  const cwd = path.resolve(ctx.workDir);
  if (!(await stat(cwd).then((s) => s.isDirectory(), () => false))) return failed("The agent's working folder does not exist; ask the builder to create it or choose another root.");
  const sandboxed = await useSandbox(ctx);
  // Inside the sandbox, HOME is its own /tmp; outside, a folder made for this call and removed after it.
  const home = sandboxed ? "/tmp" : await mkdtemp(path.join(tmpdir(), "quiver-bash-"));
  try {
    const run = await runCommand({
      spec: { command: "bash", args: ["-c", command], cwd, env: { ...childBaseEnv(), HOME: home, TMPDIR: home, TERM: "dumb", PAGER: "cat", GIT_PAGER: "cat" } },
      paths: { treeDir: cwd, workDir: cwd, dataDir: ctx.dataDir },
      sandbox: sandboxed,
      timeoutMs: seconds * 1000,
      signal: ctx.signal,
    });
    if (run.stopped) return stoppedResult(run, seconds, ctx.signal, "command");
    const output = run.output.trimEnd() || "(no output)";
    const status = run.code === null ? "Killed by a signal" : `Exit status ${run.code}`;
    return run.code === 0 ? ok(`${status}\n${output}`) : failed(`${status}\n${output}`);
  } finally {
    if (!sandboxed) await rm(home, { recursive: true, force: true });
  }
});

export const bash: SystemSource = {
  name: "bash",
  title: "Shell",
  description: "Run shell commands in the tool sandbox; each command starts fresh in the run's working folder.",
  settings_schema: null,
  operations: [
    operation({
      name: "run_bash",
      title: "Run a shell command",
      description:
        "Run one shell command in the run's working folder and answer its exit status and combined output; it is stopped at its timeout, nothing typed interactively reaches it, and nothing it starts outlives it.",
      input_schema: inputs(
        {
          command: { type: "string", description: "The command line to run, e.g. ls -la." },
          timeout: { type: "integer", minimum: 1, maximum: 300, default: 120, description: "Seconds to wait before stopping the command." },
        },
        ["command"],
      ),
      risk: "exec",
      // R-sys-timeouts: 300 seconds; the command's own timeout argument ends it first.
      timeout: 300,
      capabilities: ["shell.exec"],
    }),
  ],
  handlers: { run_bash: runBash },
};
