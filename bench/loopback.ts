// What the runtime's benchmarks share: the loopback model (tests/support/loopback-model.ts) in a process of its own,
// so its work is not charged to the studio's process, the tool that answers at once, and a batch of concurrent runs
// driven to their end.
import { spawn } from "node:child_process";
import path from "node:path";
import type { Runtime } from "@/server/runtime";

/** What the loopback's scripted replies are made of, handed to a fallback in the loopback's own process. */
export type Kit = { call(name: string, args: Record<string, unknown>): unknown; text(text: string): unknown };
export type ModelRequest = { body: { model: string; messages: { role: string }[] } };
/**
 * The reply to each request. It runs in the loopback's process, sent there as its source, so it may use only its
 * arguments: `params` carries the benchmark's numbers.
 */
export type Fallback<P> = (request: ModelRequest, kit: Kit, params: P) => unknown;

/** How long the loopback may take to start before the benchmark gives up. */
const START_MS = 60_000;

export async function loopbackProcess<P>(fallback: Fallback<P>, params: P): Promise<{ url: string; stop(): void }> {
  const loopback = path.join(process.cwd(), "tests", "support", "loopback-model.ts");
  const script = `
    const loaded = await import(${JSON.stringify(loopback)});
    const { startLoopbackModel, call, text } = loaded.startLoopbackModel ? loaded : loaded.default;
    const model = await startLoopbackModel();
    const reply = (${fallback.toString()});
    const params = ${JSON.stringify(params)};
    model.fallback = (request) => reply(request, { call, text }, params);
    process.stdout.write(model.url + "\\n");`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let timer: NodeJS.Timeout | undefined;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.once("exit", (code) => reject(new Error(`the loopback model exited with ${code}`)));
      timer = setTimeout(() => reject(new Error(`the loopback model's start took over ${START_MS / 1000} s`)), START_MS);
    });
    return { url, stop: () => child.kill() };
  } catch (error) {
    child.kill();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The reply of a model that calls `ping` until it has `calls` results, each within the model name's "-<ms>" suffix;
 * one named "loopback-nap" calls `nap` once for a minute instead (a run that sleeps in a call), then answers.
 */
export const pingUntil: Fallback<{ calls: number; ping: string; nap?: string }> = (request, { call, text }, { calls, ping, nap }) => {
  const done = request.body.messages.filter((m) => m.role === "tool").length;
  const kind = request.body.model.split("-")[1] ?? "0";
  if (nap && kind === "nap") return done === 0 ? call(nap, { seconds: 60 }) : text("Rested.");
  const reply = done < calls ? call(ping, { n: done + 1 }) : text("All pinged.");
  return { ...(reply as object), delayMs: Math.random() * Number(kind) };
};

/** A tool function (Python) that answers at once, for the steps' own cost. */
export const PING = `def ping(n: int) -> str:
    """Answer at once.

    Args:
        n: Which call of the run this is.
    """
    return f"pong {n}"
`;

/** `count` runs started together and each driven to its end in `runtime`: their ids and the time they took. */
export async function concurrentRuns(runtime: Runtime, agentId: string, count: number, user: { id: string }): Promise<{ ids: string[]; ms: number }> {
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: count }, async () => {
      const { runId } = await runtime.start({ agentId, message: "Ping five times.", user });
      await runtime.idle(runId);
      return runId;
    }),
  );
  return { ids, ms: performance.now() - started };
}
