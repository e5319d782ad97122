// A studio process without pages (tests/support/studio-worker.ts) as the tests and the takeover benchmark start it:
// the runs it drives, read from the JSON lines it prints, so a caller knows which process to kill.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export type StudioProcess = {
  child: ChildProcess;
  pid: number;
  /** The runs it drives now, as its last line said. */
  live: Set<string>;
  lines: Record<string, unknown>[];
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Resolves once it says it is ready; rejects if it exits first (a refused start-up). */
  ready: Promise<void>;
};

/** Started with tsx a loader of the process itself, so a kill reaches the studio, not a wrapper (R-ops-tsx-child). */
export function studioProcess(env: Record<string, string | undefined>, options: { stderr?: "ignore" | "inherit" } = {}): StudioProcess {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join("tests", "support", "studio-worker.ts")], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", options.stderr ?? "ignore"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code: number | null) => resolve(code)));
  let isReady!: () => void;
  const ready = new Promise<void>((resolve, reject) => {
    isReady = resolve;
    void exited.then((code) => reject(new Error(`the studio process exited with ${code} before it was ready`)));
  });
  // Awaited only by callers that want it ready; a refused start-up is theirs to see in `lines`.
  ready.catch(() => undefined);
  const worker: StudioProcess = { child, pid: child.pid!, live: new Set(), lines: [], exited, ready };
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (!line.startsWith("{")) continue;
      const parsed = JSON.parse(line) as Record<string, unknown>;
      worker.lines.push(parsed);
      if (parsed.ready) isReady();
      if (Array.isArray(parsed.live)) worker.live = new Set(parsed.live as string[]);
    }
  });
  return worker;
}
