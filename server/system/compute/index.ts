// system:compute (R-sys-compute): the model writes a program, and the program calls the tools: Python run in the tool
// host's sandbox (its work folder, environment and limits), where the tree's tools import as plain functions.
// bootstrap.py runs the program; edit it for what the program sees, this file for how it is started.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_LIMITS, hostEnv, packageRoot, prepareTree } from "@/server/host/command";
import { Failure, failed, handler, integer, ok, text } from "../handler";
import { runCommand, stoppedResult, useSandbox } from "../process";
import { inputs, operation, type SystemSource } from "../types";

export const COMPUTE_MAX_SECONDS = 300;
const DEFAULT_SECONDS = 120;

let bootstrap: string | undefined;

/** bootstrap.py's source, given to `python3 -c`: nothing of the studio's checkout has to be visible in the sandbox. */
function bootstrapSource(): string {
  bootstrap ??= readFileSync(path.join(packageRoot(), "server", "system", "compute", "bootstrap.py"), "utf8");
  return bootstrap;
}

const computeExec = handler(async (args, ctx) => {
  const code = text(args, "code");
  const seconds = integer(args, "timeout", DEFAULT_SECONDS, 1, COMPUTE_MAX_SECONDS);
  let place: ReturnType<typeof prepareTree>;
  try {
    place = prepareTree(ctx.tree.dir, { dataDir: ctx.dataDir });
  } catch {
    throw new Failure("The studio's tool tree is not there, so no program can run; ask a developer to create it.");
  }
  const { tree, dataDir, workDir, siteDir, python } = place;
  const limits = { as: DEFAULT_LIMITS.addressSpaceMb, cpu: DEFAULT_LIMITS.cpuSeconds, nofile: DEFAULT_LIMITS.openFiles, nproc: DEFAULT_LIMITS.processes };
  const config = {
    toolhost: path.join(packageRoot(), "server", "toolhost"),
    site: existsSync(siteDir) ? siteDir : null,
    tree,
    files: ctx.tree.files,
    limits,
  };
  const run = await runCommand({
    spec: { command: python, args: ["-c", bootstrapSource(), JSON.stringify(config)], cwd: workDir, env: hostEnv(workDir) },
    paths: { treeDir: tree, workDir, dataDir },
    sandbox: await useSandbox(ctx),
    timeoutMs: seconds * 1000,
    signal: ctx.signal,
    input: code,
  });
  if (run.stopped) return stoppedResult(run, seconds, ctx.signal, "program");
  const output = run.output.trimEnd() || "(the program printed nothing)";
  if (run.code === 0) return ok(output);
  return failed(`The program failed (${run.code === null ? "killed by a signal" : `exit status ${run.code}`}):\n${output}`);
});

export const compute: SystemSource = {
  name: "compute",
  title: "Compute",
  description: "Let the agent write and run a Python program that calls its tools as plain functions, in one step.",
  settings_schema: null,
  operations: [
    operation({
      name: "compute_exec",
      title: "Run a Python program",
      description:
        "Run a Python program in the tool sandbox and answer what it prints; this agent's tree tools import as plain functions (from tools.notes import read), and tools the agent was not given are refused.",
      input_schema: inputs(
        {
          code: { type: "string", description: "The Python program; print what you want back." },
          timeout: { type: "integer", minimum: 1, maximum: 300, default: 120, description: "Seconds to wait before stopping the program." },
        },
        ["code"],
      ),
      risk: "exec",
      timeout: 300,
      capabilities: ["code.exec"],
    }),
  ],
  handlers: { compute_exec: computeExec },
};
