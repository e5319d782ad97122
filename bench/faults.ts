// How the tool host recovers from what its tools do, beside the targets (docs/rules.md, Host limits): the CPU after a
// busy loop times out, the memory after a hog, the zombies after a tool forks. Real hosts through hostFor(), figures
// read from /proc. Run: npm run bench:faults
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeAll, hostFor, resultText, type Host } from "../server/host";

const ROUNDS = 3;
/** A window of this many ms under IDLE_SHARE of one core counts as idle; the figure is the window's end. */
const WINDOW_MS = 250;
const IDLE_SHARE = 0.05;
const TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

const TOOLS = `"""What the fault bench runs."""

import os

from quiver import tool

KEPT = []


@tool(timeout=1)
def spin() -> str:
    """Loop for ever."""
    while True:
        pass


@tool(timeout=30)
def hog() -> str:
    """Keep memory until none is left, then say how much."""
    try:
        while True:
            KEPT.append(b"x" * (64 << 20))
    except MemoryError:
        return f"kept {len(KEPT) * 64} MB"


@tool
def fork(tag: str) -> str:
    """Fork 50 children named tag that exit at once, and wait for none."""
    for _ in range(50):
        if os.fork() == 0:
            fd = os.open("/proc/self/comm", os.O_WRONLY)
            os.write(fd, tag.encode())
            os.close(fd)
            os._exit(0)
    return "forked"


@tool
def ping() -> str:
    """Answer at once."""
    return "pong"
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A process's stat fields after its name (state is [0]), or null when it is gone. */
function stat(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** CPU seconds a process has used; once it is gone, what it had used when last seen. */
function cpuSeconds(pid: number, last: Map<number, number>): number {
  const fields = stat(pid);
  if (fields) last.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS);
  return last.get(pid) ?? 0;
}

function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The tree's host processes now: the ones seen before (until they are gone) and the current one. */
function hostPids(host: Host, seen: Set<number>): number[] {
  if (host.status.pid !== null) seen.add(host.status.pid);
  return [...seen];
}

async function idleAfterBusyLoop(host: Host): Promise<number> {
  const seen = new Set<number>();
  await host.call("bench__ping", {});
  hostPids(host, seen);
  const timedOut = await host.call("bench__spin", {});
  if (timedOut.outcome !== "timeout") throw new Error(`bench__spin answered ${timedOut.outcome}, not a timeout`);
  const start = performance.now();
  const last = new Map<number, number>();
  const used = () => hostPids(host, seen).reduce((sum, pid) => sum + cpuSeconds(pid, last), 0);
  let before = used();
  while (performance.now() - start < 30_000) {
    await sleep(WINDOW_MS);
    const now = used();
    if ((now - before) / (WINDOW_MS / 1000) < IDLE_SHARE) return (performance.now() - start) / 1000;
    before = now;
  }
  return Infinity;
}

async function rssAfterHog(host: Host): Promise<{ mb: number; at: number; kept: string }> {
  const seen = new Set<number>();
  await host.call("bench__ping", {});
  hostPids(host, seen);
  const kept = resultText(await host.call("bench__hog", {}));
  const start = performance.now();
  let mb = Infinity;
  while (performance.now() - start < 10_000) {
    await host.call("bench__ping", {}); // measured with a host serving the tree again
    mb = hostPids(host, seen).reduce((sum, pid) => sum + rssMb(pid), 0);
    if (mb < 300) break;
    await sleep(100);
  }
  return { mb, at: (performance.now() - start) / 1000, kept };
}

function zombies(tag: string): number {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const text = readFileSync(`/proc/${pid}/stat`, "utf8");
        return text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")) === tag && stat(Number(pid))?.[0] === "Z";
      } catch {
        return false;
      }
    }).length;
}

async function main() {
  const scratch = mkdtempSync(path.join(tmpdir(), "quiver-bench-faults-"));
  const tree = path.join(scratch, "tools");
  mkdirSync(tree);
  writeFileSync(path.join(tree, "bench.py"), TOOLS);
  const host = hostFor(tree, { sandbox: false, dataDir: path.join(scratch, "data") });
  try {
    const idle: number[] = [];
    for (let round = 0; round < ROUNDS; round++) idle.push(await idleAfterBusyLoop(host));
    const hogs: Awaited<ReturnType<typeof rssAfterHog>>[] = [];
    for (let round = 0; round < ROUNDS; round++) hogs.push(await rssAfterHog(host));
    const tag = `qzbench${process.pid % 100_000}`;
    await host.call("bench__fork", { tag });
    await sleep(5_000);
    const left = zombies(tag);

    console.log(`tool host faults (unsandboxed, ${ROUNDS} rounds, medians)`);
    console.log(`  CPU back to idle after a busy-loop timeout: ${median(idle).toFixed(1)} s   target ≤ 10 s   (rounds: ${idle.map((s) => s.toFixed(1)).join(", ")} s)`);
    console.log(
      `  host RSS after a memory hog: ${median(hogs.map((h) => h.mb)).toFixed(0)} MB by ${median(hogs.map((h) => h.at)).toFixed(1)} s   target < 300 MB within 10 s   (the hog ${hogs[0]!.kept})`,
    );
    console.log(`  zombies 5 s after a tool forks 50: ${left}   target 0`);
    console.log(`  last replacement: ${host.status.lastReplacement ?? "none"}`);
    const met = median(idle) <= 10 && median(hogs.map((h) => h.mb)) < 300 && left === 0;
    if (!met) process.exitCode = 1;
  } finally {
    await closeAll();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
