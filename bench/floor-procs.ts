// The benchmark's view of its own process tree through /proc (Linux): which processes descend from this one, the
// CPU each has used (utime + stime, what `ps` and pidusage read) and its resident memory. A side's CPU is this
// process's (process.cpuUsage) plus that of the subtrees it owns (its Python tool host, bubblewrap around it); the
// loopback model's subtree is the benchmark's, never a side's. Elsewhere than Linux every figure here is zero.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU fields: 100 on every Linux this runs on (getconf CLK_TCK). */
const TICKS = 100;

type Proc = { pid: number; ppid: number; cpuMs: number; rssKb: number; cmd: string };

function read(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name sits in parentheses and may hold spaces: the fields after the last ")" are fixed.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rss = /VmRSS:\s+(\d+)/.exec(status);
    const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    return { pid, ppid: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS, rssKb: rss ? Number(rss[1]) : 0, cmd };
  } catch {
    return null; // gone meanwhile
  }
}

function all(): Proc[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  return names.filter((n) => /^\d+$/.test(n)).flatMap((n) => read(Number(n)) ?? []);
}

/** Every process under `root` (not root itself), by pid. */
export function descendants(root = process.pid): Proc[] {
  const procs = all();
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: Proc[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      walk(child.pid);
    }
  };
  walk(root);
  return out;
}

/** The subtree roots among this process's children whose command line matches. */
export function childrenMatching(pattern: RegExp): number[] {
  return descendants()
    .filter((p) => p.ppid === process.pid && pattern.test(p.cmd))
    .map((p) => p.pid);
}

/** The pids of `roots` and everything under them. */
export function subtree(roots: number[]): Set<number> {
  const procs = descendants();
  const set = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!set.has(p.ppid) || set.has(p.pid)) continue;
      set.add(p.pid);
      grew = true;
    }
  }
  return set;
}

/** CPU used so far by this process and by the processes `pids` names, in ms; only those are read, so it costs little. */
export function cpuNow(pids: Set<number>): { self: number; children: number } {
  const own = process.cpuUsage();
  const childMs = [...pids].reduce((sum, pid) => sum + (read(pid)?.cpuMs ?? 0), 0);
  return { self: (own.user + own.system) / 1000, children: childMs };
}

/**
 * Samples the resident memory of this process plus `pids` every `everyMs` until stopped: the peak of their sum
 * (shared pages counted in each process, as RSS is), and this process's own peak.
 */
export function rssPeak(pids: Set<number>, everyMs = 100): { stop(): { treeMb: number; selfMb: number } } {
  let tree = 0;
  let self = 0;
  const sample = () => {
    const own = process.memoryUsage.rss() / 1024 / 1024;
    const others = [...pids].reduce((sum, pid) => sum + (read(pid)?.rssKb ?? 0) / 1024, 0);
    self = Math.max(self, own);
    tree = Math.max(tree, own + others);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { treeMb: tree, selfMb: self };
    },
  };
}
