// A worker process of the chaos test (tests/support/studio-worker.ts under tsx), with what it last said it drives,
// so the test knows which one to kill and which runs changed process. Edit with the test.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export type Worker = { child: ChildProcess; pid: number; ready: boolean; live: Set<string>; exited: Promise<number | null> };

/** Starts one; every run it reports driving is added under its pid to `drivenBy`. */
export function studioProcess(env: Record<string, string | undefined>, drivenBy: Map<string, Set<number>>): Worker {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join("tests", "support", "studio-worker.ts")], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const worker: Worker = { child, pid: child.pid!, ready: false, live: new Set(), exited: new Promise((resolve) => child.once("exit", (code: number | null) => resolve(code))) };
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (!line.startsWith("{")) continue;
      const parsed = JSON.parse(line) as { ready?: boolean; live?: string[] };
      if (parsed.ready) worker.ready = true;
      if (Array.isArray(parsed.live)) {
        worker.live = new Set(parsed.live);
        for (const id of parsed.live) drivenBy.set(id, (drivenBy.get(id) ?? new Set()).add(worker.pid));
      }
    }
  });
  child.stderr!.on("data", () => undefined);
  return worker;
}
