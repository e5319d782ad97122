// One command run for a handler (run_bash, compute_exec): inside bubblewrap the way the tool host is (host/command.ts's
// confine), in its own process group so a timeout, a cancel or its own exit kills all of it, its output capped.
import { spawn } from "node:child_process";
import type { Duplex } from "node:stream";
import { childBaseEnv } from "@/server/env";
import { confine, type SpawnSpec } from "@/server/host/command";
import { probeSandbox, type SandboxPaths } from "@/server/host/sandbox";
import type { SystemContext, SystemResult } from "./types";

/** The most output kept: its start and its end, the middle dropped (the runtime's output cap cuts further). */
export const OUTPUT_HEAD = 256 * 1024;
export const OUTPUT_TAIL = 64 * 1024;
/** How long to wait for the streams to close after the process itself exited (a child it left may hold them). */
const DRAIN_MS = 1_000;

export type Finished = {
  /** The exit status, or null when a signal ended it. */
  code: number | null;
  /** stdout and stderr in the order they arrived, capped. */
  output: string;
  /** Why it was stopped before it finished: its own timeout, or the caller's signal. */
  stopped: "timeout" | "aborted" | null;
  sandboxed: boolean;
  /** Why it ran unsandboxed, as a sentence; null when sandboxed. */
  reason: string | null;
};

export type RunOptions = {
  spec: SpawnSpec;
  /** What bubblewrap makes writable (the tree and work folder) and hides (the data folder). */
  paths: SandboxPaths;
  sandbox: boolean;
  timeoutMs: number;
  signal: AbortSignal;
  /** Written to stdin, which is then closed; stdin is /dev/null without it. */
  input?: string;
  /** Given the child's fd 3, a line both ways (compute_exec's calls back to the studio, R-code-import). */
  channel?: (stream: Duplex) => void;
};

/** Bytes kept from the start and the end of a stream, with how many were dropped between. */
class CappedOutput {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;

  push(chunk: Buffer) {
    if (this.headBytes < OUTPUT_HEAD) {
      const take = chunk.subarray(0, OUTPUT_HEAD - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - this.tail[0]!.length >= OUTPUT_TAIL) {
      const first = this.tail.shift()!;
      this.tailBytes -= first.length;
      this.dropped += first.length;
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    return this.dropped > 0 ? `${head}\n[… ${this.dropped.toLocaleString("en-US")} bytes of output dropped …]\n${tail}` : head + tail;
  }
}

function killGroup(pid: number | undefined) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export async function runCommand(options: RunOptions): Promise<Finished> {
  const { spec, sandboxed, reason } = await confine(options.spec, options.paths, options.sandbox);
  const output = new CappedOutput();
  if (options.signal.aborted) return { code: null, output: "", stopped: "aborted", sandboxed, reason };
  return new Promise((resolve) => {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env as NodeJS.ProcessEnv,
      // Its own process group (and, unsandboxed, its own session): one kill reaches everything it started.
      detached: true,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe", ...(options.channel ? (["pipe"] as const) : [])],
    });
    const channel = options.channel ? (child.stdio[3] as Duplex | null) : null;
    if (channel) {
      channel.on("error", () => undefined);
      options.channel!(channel);
    }
    let stopped: Finished["stopped"] = null;
    let settled = false;
    const stop = (why: "timeout" | "aborted") => {
      stopped ??= why;
      killGroup(child.pid);
    };
    const timer = setTimeout(() => stop("timeout"), options.timeoutMs);
    const onAbort = () => stop("aborted");
    options.signal.addEventListener("abort", onAbort, { once: true });
    const finish = (code: number | null, error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      channel?.destroy();
      const text = error ? `${output.text()}${error.message}` : output.text();
      resolve({ code, output: text, stopped, sandboxed, reason });
    };
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(options.input);
    child.on("error", (error) => finish(null, error));
    child.on("close", (code) => finish(code));
    // A process it left behind may keep the pipes open after it exited: wait a moment for the rest, then answer.
    child.on("exit", (code) => {
      killGroup(child.pid);
      setTimeout(() => finish(code), DRAIN_MS).unref();
    });
  });
}

/** Whether this call's commands run inside bubblewrap: asked for (the default) and working on this machine. */
export async function useSandbox(ctx: SystemContext): Promise<boolean> {
  if (ctx.sandbox === false) return false;
  return (await probeSandbox(childBaseEnv().PATH ?? "")).bwrap !== null;
}

/** A stopped command as the model reads it: stopped, maybe partly run (R-call-timeout-answer). */
export function stoppedResult(run: Finished, seconds: number, signal: AbortSignal, what: string): SystemResult {
  const output = run.output.trimEnd() || "(no output)";
  const timedOut = run.stopped === "timeout" || (signal.reason as Error | undefined)?.name === "TimeoutError";
  const why = run.stopped === "timeout" ? `did not finish within ${seconds} s and was stopped` : timedOut ? "ran out of time and was stopped" : "was stopped because the call was cancelled";
  return { text: `The ${what} ${why}; it may have partly run, so check its effects before running it again.\n${output}`, outcome: timedOut ? "timeout" : "failed" };
}
