// The race tests' common parts: rounds of two saves of one file from one version, tallied by what came of each
// round, and studio processes (racer.ts) driven over their stdin to save at one moment.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { hashSource } from "@/server/tree/files";
import type { Answer, Order } from "./racer";

export const ONE_SAVED_ONE_REFUSED = "one saved (200), the other refused (409), the winner's text on disk";

/** What came of one round: the two statuses, and whether the file holds the text of the save that answered 200. */
export function outcome(statuses: [number, number], sources: [string, string], onDisk: string): string {
  const ok = statuses.flatMap((status, i) => (status === 200 ? [sources[i]!] : []));
  if (ok.length === 1 && statuses.includes(409) && onDisk === ok[0]) return ONE_SAVED_ONE_REFUSED;
  if (ok.length === 2) return "both saved (200, 200): one edit lost";
  return `answered ${statuses.join(" and ")}, ${ok.includes(onDisk) ? "a saved text" : "another text"} on disk`;
}

export function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

/** Lays down the round's starting version of the file and the two edits made from it. */
export function startRound(tree: string, name: string, round: number): { baseHash: string; sources: [string, string] } {
  const base = `"""Round ${round}."""\n`;
  fs.writeFileSync(path.join(tree, name), base);
  return { baseHash: hashSource(base), sources: [`${base}# edit A\n`, `${base}# edit B\n`] };
}

const repo = path.resolve(__dirname, "../../..");

/** A studio process of its own (tsx running racer.ts) that saves through the tRPC router when ordered to. */
export class Racer {
  private readonly lines: AsyncIterator<string>;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  static async start(env: Record<string, string>): Promise<Racer> {
    const child = spawn(path.join(repo, "node_modules", ".bin", "tsx"), [path.join(__dirname, "racer.ts")], {
      cwd: repo,
      env: { ...process.env, ...env },
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const racer = new Racer(child);
    const ready = await racer.next(60_000).catch((err: Error) => {
      throw new Error(`${err.message}; the racer said: ${stderr}`);
    });
    if (!(ready as { ready?: boolean }).ready) throw new Error(`The racer did not start: ${JSON.stringify(ready)} ${stderr}`);
    return racer;
  }

  async next(timeoutMs = 10_000): Promise<Answer | { ready: boolean }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`No answer from the racer in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const line = await Promise.race([this.lines.next(), timeout]);
      if (line.done) throw new Error(`The racer ended (exit ${this.child.exitCode})`);
      return JSON.parse(line.value) as Answer;
    } finally {
      clearTimeout(timer);
    }
  }

  async save(order: Order): Promise<Answer> {
    this.child.stdin.write(`${JSON.stringify(order)}\n`);
    const answer = (await this.next()) as Answer;
    if (answer.round !== order.round) throw new Error(`The racer answered round ${answer.round} to round ${order.round}`);
    return answer;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
