// R-root-confine-race: while another process swaps a folder of the root for a symbolic link to a folder outside it, as
// fast as it can, no read, write, edit, delete, listing or search of system:filesystem ever reaches outside the root.
// The swap is an atomic exchange (renameat2 RENAME_EXCHANGE), so the name is always either the real folder or the link.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, context, place, type Place } from "./context";

/** At least this many calls, unless the time bound ends the test first (it then says how many ran). */
const OPS = Number(process.env.QUIVER_RACE_OPS ?? 20_000);
const SECONDS = 60;
const AT_ONCE = 8;
const MARKER = "MARKER-OUTSIDE-THE-ROOT";

// Exchanges root/d (a real folder) with root/dlink (a link to the outside folder) until it is killed.
const SWAPPER = String.raw`
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
AT_FDCWD, RENAME_EXCHANGE = -100, 2
os.chdir(sys.argv[1])
print("ready", flush=True)
while True:
    if libc.renameat2(AT_FDCWD, b"d", AT_FDCWD, b"dlink", RENAME_EXCHANGE) != 0:
        sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
`;

let p: Place;
let swapper: ChildProcess | null = null;
beforeEach(() => {
  p = place("race");
});
afterEach(() => {
  if (swapper?.pid && swapper.exitCode === null) process.kill(swapper.pid, "SIGKILL");
  swapper = null;
  p.cleanup();
});

const N = Math.ceil(OPS / 10);
const names = (prefix: string) => Array.from({ length: N }, (_, i) => `${prefix}-${i}.txt`);

/** The same files inside the real folder and outside, so a call that is led outside finds something to act on. */
function lay(out: string, inside: string) {
  for (const dir of [out, inside]) {
    mkdirSync(path.join(dir, "tree"), { recursive: true });
    for (const name of [...names("del"), ...names("edit")]) writeFileSync(path.join(dir, name), "v0\n");
    writeFileSync(path.join(dir, "tree", "leaf.txt"), "v0\n");
    mkdirSync(path.join(dir, "small", "sub"), { recursive: true });
  }
  for (const file of ["read.txt", "small/read.txt", "small/sub/outside-only.txt"]) writeFileSync(path.join(out, file), `${MARKER}\n`);
  for (const file of ["read.txt", "small/read.txt", "small/sub/inside.txt"]) writeFileSync(path.join(inside, file), "inside\n");
}

/** Every entry under `dir` with its size and modification time, to see whether anything there changed. */
function snapshot(dir: string): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (rel: string) => {
    const abs = path.join(dir, rel);
    const stat = statSync(abs);
    seen.set(rel || ".", `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`);
    if (stat.isDirectory()) for (const name of readdirSync(abs)) walk(path.join(rel, name));
  };
  walk("");
  return seen;
}

function startSwapper(): Promise<void> {
  swapper = spawn("python3", ["-c", SWAPPER, p.root], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    swapper!.once("error", reject);
    swapper!.once("exit", (code) => reject(new Error(`the swapper ended (${code}) before the calls did`)));
    swapper!.stdout!.once("data", () => resolve());
  });
}

describe("confinement under a race (R-root-confine-race)", () => {
  it(`lets no call out of the root while a folder is swapped for a link (${OPS} calls)`, { timeout: (SECONDS + 30) * 1000 }, async () => {
    const out = path.join(p.dir, "out");
    const inside = path.join(p.root, "d");
    lay(out, inside);
    symlinkSync(path.relative(p.root, out), path.join(p.root, "dlink"));

    const before = snapshot(out);
    const ctx = context(p);
    const del = names("del");
    const edit = names("edit");
    const jobs: [string, Record<string, unknown>][] = [];
    const r = (operation: string, args: Record<string, unknown>): [string, Record<string, unknown>] => [operation, args];
    for (let i = 0; i < N; i++) {
      jobs.push(
        r("read_file", { path: "d/read.txt" }),
        r("read_file", { path: "d/read.txt" }),
        r("write_file", { path: `d/new-${i}.txt`, content: "written", overwrite: true }),
        r("edit_file", { path: `d/${edit[i]}`, old_text: "v0", new_text: "v1" }),
        r("delete", { path: `d/${del[i]}` }),
        r("delete", { path: "d/tree", recursive: true }),
        r("write_file", { path: "d/tree/leaf.txt", content: "v0\n", overwrite: true }),
        r("list_directory", { path: i % 2 ? "d/small" : "d/small/sub" }),
        r("glob", { pattern: "**/*.txt", path: "d/small" }),
        r("grep", { pattern: "MARKER", path: i % 2 ? "d/small" : "d/small/read.txt" }),
      );
    }
    await startSwapper();
    const fdsBefore = readdirSync("/proc/self/fd").length;
    const deadline = Date.now() + SECONDS * 1000;
    let ran = 0;
    const escaped: Record<string, number> = {};
    const worker = async () => {
      while (ran < jobs.length && Date.now() < deadline) {
        const [operation, args] = jobs[ran++]!;
        const { text } = await call("filesystem", operation, args, ctx);
        if (text.includes(MARKER) || text.includes("outside-only")) escaped[operation] = (escaped[operation] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    const fdsAfter = readdirSync("/proc/self/fd").length;
    process.kill(swapper!.pid!, "SIGKILL");
    const after = snapshot(out);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
    const seconds = (SECONDS - (deadline - Date.now()) / 1000).toFixed(1);
    console.log(`filesystem race: ${ran} calls in ${seconds} s; answers that showed the outside: ${JSON.stringify(escaped)}; outside entries changed: ${changed.length}`);
    expect(ran).toBeGreaterThan(0);
    expect(fdsAfter, "every folder and file a call opened is closed").toBe(fdsBefore);
    expect(changed.slice(0, 10)).toEqual([]);
    expect(escaped).toEqual({});
    expect(readFileSync(path.join(out, "read.txt"), "utf8")).toBe(`${MARKER}\n`);
  });
});

