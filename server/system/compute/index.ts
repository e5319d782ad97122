// system:compute (R-sys-compute): the model writes a program, and the program calls the tools: Python run in the tool
// host's sandbox (its work folder, environment and limits), where the tree's tools import as plain functions.
// bootstrap.py runs the program; edit it for what the program sees, this file for how it is started. Every source of
// the agent imports too, from quiver.sources (R-code-import): sources.py in the program, channel.ts on this side.
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { DEFAULT_LIMITS, hostEnv, packageRoot, prepareTree } from "@/server/host/command";
import { Failure, failed, handler, integer, ok, text } from "../handler";
import { runCommand, stoppedResult, useSandbox } from "../process";
import { inputs, operation, type SystemContext, type SystemSource } from "../types";
import { PausableClock, serveChannel } from "./channel";
import { writeAgentIndex, writeProgramIndex } from "./index-files";
import { moduleIndex, sourcesIndex } from "./index-md";

export const COMPUTE_MAX_SECONDS = 300;
const DEFAULT_SECONDS = 120;

const texts = new Map<string, string>();

/** bootstrap.py's (or sources.py's) text, given to `python3 -c`: nothing of the studio's checkout has to be visible in the sandbox. */
function pythonSource(file: "bootstrap.py" | "sources.py"): string {
  let text = texts.get(file);
  if (text === undefined) texts.set(file, (text = readFileSync(path.join(packageRoot(), "server", "system", "compute", file), "utf8")));
  return text;
}

const NO_RUN = "quiver.sources works only in a run of an agent, where the studio can call each source back under the agent's rules";

/**
 * What the program's quiver.sources is made of: the agent's modules, their INDEX.md in a folder of its own (and,
 * for the agent's file tools, in its working folder), or why there are none.
 */
async function sourcesConfig(ctx: SystemContext, workDir: string): Promise<{ config: Record<string, unknown>; folder: string | null }> {
  if (!ctx.sources) return { config: { error: NO_RUN }, folder: null };
  const modules = await ctx.sources.modules();
  // The agent's own copy is a courtesy to its file tools: one that cannot be written (a link, a missing root) leaves the program's.
  if (ctx.sources.folder) await writeAgentIndex(ctx.sources.folder, ctx.dataDir, modules).catch(() => undefined);
  const folder = writeProgramIndex(workDir, modules);
  const specs = modules.map((module) => ({ ...module, doc: moduleIndex(module) }));
  return { config: { fd: 3, folder, index: sourcesIndex(modules), modules: specs }, folder };
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
  const { config: sources, folder } = await sourcesConfig(ctx, workDir);
  const config = {
    toolhost: path.join(packageRoot(), "server", "toolhost"),
    site: existsSync(siteDir) ? siteDir : null,
    tree,
    files: ctx.tree.files,
    limits,
    sources,
    sources_code: pythonSource("sources.py"),
  };
  // The program's own clock, stopped while a call it made runs (R-code-clock); the call's signal stops it too.
  const stop = new AbortController();
  const abort = () => stop.abort(ctx.signal.reason);
  ctx.signal.addEventListener("abort", abort, { once: true });
  let timedOut = false;
  const clock = new PausableClock(seconds * 1000, () => {
    timedOut = true;
    stop.abort();
  });
  try {
    const run = await runCommand({
      spec: { command: python, args: ["-c", pythonSource("bootstrap.py"), JSON.stringify(config)], cwd: workDir, env: hostEnv(workDir) },
      paths: { treeDir: tree, workDir, dataDir },
      sandbox: await useSandbox(ctx),
      timeoutMs: COMPUTE_MAX_SECONDS * 1000 * 1000,
      signal: stop.signal,
      input: code,
      channel: ctx.sources ? (stream) => serveChannel(stream, ctx.sources!, clock) : undefined,
    });
    if (run.stopped) return stoppedResult(timedOut ? { ...run, stopped: "timeout" } : run, seconds, ctx.signal, "program");
    return finished(run);
  } finally {
    clock.stop();
    ctx.signal.removeEventListener("abort", abort);
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
});

function finished(run: { code: number | null; output: string }) {
  const output = run.output.trimEnd() || "(the program printed nothing)";
  if (run.code === 0) return ok(output);
  return failed(`The program failed (${run.code === null ? "killed by a signal" : `exit status ${run.code}`}):\n${output}`);
}

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
        "Run a Python program in the tool sandbox and answer what it prints; every source of this agent imports as plain functions, each call under its rules (from quiver.sources.files import read_file), listed with their signatures in .quiver/sources/INDEX.md and in quiver.sources.__doc__; tools the agent was not given are refused.",
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
