#!/usr/bin/env node
// `npm run bench:start` (R-boot-timed): how long the built studio (`npm start`'s server, scripts/serve.mjs) takes from its process's
// start to its first 200 on `/` on an existing data folder, the median over several starts, and how much memory it
// holds once the start has settled and again after a first page, each beside its target. The floor, timed in the same
// run, is a Node process answering 200 from a bare http server: the ratio to it says how much of a figure is this
// machine's load. Also: one start on a new data folder, and the first-load JavaScript of `/` and `/tools` as Next
// reports it (.next/diagnostics/route-bundle-stats.json), gzipped. Everything is written under os.tmpdir(); the
// checkout is compared before and after, and a file the run left there is reported and fails the run.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { serverEnv } from "../scripts/server-process.mjs";
import { fmtMs, median, p95 } from "./stats.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
// What `npm start` serves with, so the figure is the start a person gets (and requests resolve their address alike).
const serve = path.join(root, "scripts", "serve.mjs");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_MANUAL_SIG_HANDLE: "1", DATABASE_URL: "" };
const RUNS = Math.max(3, Math.min(25, Number(process.env.QUIVER_BENCH_STARTS ?? 7)));
const TARGET_START_MS = 1_000;
const TARGET_RSS_MIB = 250;
const START_LIMIT_MS = 60_000;

if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.log("no build yet: running next build first");
  const built = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, env, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/**
 * What the studio could write in the checkout if a path were wrong: the default data folder, the tool tree, the
 * templates, and any new entry at the top. Other people's edits elsewhere in a shared checkout are not this run's.
 */
function checkoutFiles() {
  const files = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        files.set(`${full}/`, "dir");
        walk(full);
      } else files.set(full, String(fs.lstatSync(full).mtimeMs));
    }
  };
  for (const name of fs.readdirSync(root)) files.set(path.join(root, name), "top");
  for (const dir of [".quiver", "tools", "templates"]) if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  return files;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** VmRSS of a process in MiB, or 0 once it is gone. */
function rssMiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** CPU time a process has used so far (user and system), in ms: less bent by the machine's load than the wall clock. */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime, fields 14 and 15 of proc(5), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

function childrenOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The server's own RSS, and its descendants' (the Python tool hosts, bubblewrap around them) apart. */
function treeRss(pid) {
  const descendants = [];
  const queue = childrenOf(pid);
  while (queue.length > 0 && descendants.length < 200) {
    const next = queue.shift();
    descendants.push(next);
    queue.push(...childrenOf(next));
  }
  return { server: rssMiB(pid), children: descendants.reduce((sum, child) => sum + rssMiB(child), 0), count: descendants.length };
}

/**
 * Where a process's RSS is, from /proc/<pid>/smaps: WebAssembly memory (PGlite's; V8 keeps each wasm memory as a
 * read-write mapping directly followed by a guard reservation of several GiB), code and data mapped from files (Node's
 * binary, its libraries), and the rest (V8's heap, malloc's arenas), in MiB (R-boot-rss-split).
 */
function rssSplit(pid) {
  let text;
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return null;
  }
  const maps = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      maps.push({ start: parseInt(head[1], 16), end: parseInt(head[2], 16), perms: head[3], file: head[4] !== "0", rss: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length > 0) maps[maps.length - 1].rss = Number(rss[1]) / 1024;
  }
  const split = { wasm: 0, files: 0, rest: 0 };
  maps.forEach((map, i) => {
    const guard = maps[i + 1];
    const isWasm = map.perms.startsWith("rw") && !map.file && guard?.start === map.end && guard.perms === "---p" && guard.end - guard.start >= 4 * 2 ** 30;
    split[isWasm ? "wasm" : map.file ? "files" : "rest"] += map.rss;
  });
  return split;
}

/** Waits until the server's RSS moves less than 2 MiB over 2 s (at most 20 s), then reads it. */
async function settledRss(pid) {
  const started = performance.now();
  let last = treeRss(pid);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const now = treeRss(pid);
    if (Math.abs(now.server - last.server) < 2 || performance.now() - started > 20_000) return now;
    last = now;
  }
}

async function get(url) {
  const res = await fetch(url);
  const body = await res.text();
  return { status: res.status, body, url: res.url };
}

/** Spawns `args`, polls `url` until a 200; the time from the spawn to it, and the child, still running. */
async function startAndWait(args, childEnv, url) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: childEnv, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited before answering: ${stderr.trim()}`);
    if (performance.now() - started > START_LIMIT_MS) {
      child.kill("SIGKILL");
      throw new Error(`no 200 on ${url} within ${START_LIMIT_MS / 1000} s`);
    }
    try {
      if ((await get(url)).status === 200) return { ms: performance.now() - started, cpu: cpuMs(child.pid), child };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

async function studioStart(dataDir) {
  const port = await freePort();
  const args = [serve, "-p", String(port), "-H", "127.0.0.1"];
  return { port, ...(await startAndWait(args, serverEnv({ ...env, QUIVER_DATA_DIR: dataDir }), `http://127.0.0.1:${port}/`)) };
}

// The floor: Node itself, starting and answering 200 from a bare http server.
const FLOOR = `require("node:http").createServer((q, s) => s.end("ok")).listen(Number(process.argv[1]), "127.0.0.1")`;
async function floorStart() {
  const port = await freePort();
  const { ms, child } = await startAndWait(["-e", FLOOR, String(port)], env, `http://127.0.0.1:${port}/`);
  await stop(child);
  return ms;
}

const before = checkoutFiles();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-bench-start-"));
const dataDir = path.join(scratch, "data");
const mark = (ok) => (ok ? "met" : "NOT met");
let failed = false;
try {
  // A first start creates the embedded database (and fills Node's compile cache, as a person's first start does:
  // R-ops-compile-cache); the timed starts open the existing one.
  const fresh = await studioStart(dataDir);
  await stop(fresh.child);

  const starts = [];
  const cpus = [];
  const floors = [];
  for (let i = 0; i < RUNS; i++) {
    floors.push(await floorStart());
    const { ms, cpu, child } = await studioStart(dataDir);
    starts.push(ms);
    cpus.push(cpu);
    await stop(child);
  }
  const ratio = median(starts) / median(floors);
  const list = (times) => times.map((t) => t.toFixed(0)).join(", ");
  console.log(
    `start to first 200 on /, existing data folder: median ${fmtMs(median(starts))}, p95 ${fmtMs(p95(starts))} over ${RUNS} starts (${list(starts)} ms); target ≤ ${fmtMs(TARGET_START_MS)}: ${mark(median(starts) <= TARGET_START_MS)}`,
  );
  console.log(`  floor (bare Node http server): median ${fmtMs(median(floors))} (${list(floors)} ms); studio / floor ${ratio.toFixed(1)}×`);
  console.log(`  the server's CPU time to its first 200: median ${fmtMs(median(cpus))} (${list(cpus)} ms)`);
  console.log(`start to first 200 on /, new data folder (one start): ${fmtMs(fresh.ms)}`);

  // Memory: a start left alone until its RSS settles (no request at all), then one page and settled again.
  const port = await freePort();
  const child = spawn(process.execPath, [serve, "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: serverEnv({ ...env, QUIVER_DATA_DIR: dataDir }),
    stdio: ["ignore", "pipe", "ignore"],
  });
  try {
    // Settled means after the parts a first page does not need have started or were left for their first use, which
    // the start-up says in its log (R-boot-after-page, R-boot-queue-on-use): before that the RSS can hold still for 2 s while the studio waits for a page (R-boot-timed).
    let log = "";
    await new Promise((resolve, reject) => {
      const limit = setTimeout(() => reject(new Error(`the start-up did not start its run queue within ${START_LIMIT_MS / 1000} s`)), START_LIMIT_MS);
      child.stdout.on("data", (chunk) => {
        log = (log + chunk).slice(-4000);
        if (!/run queue and scheduler (started|left for their first use)/.test(log)) return;
        clearTimeout(limit);
        resolve();
      });
      child.once("exit", () => reject(new Error("the server exited before its run queue started")));
    });
    const idle = { ...(await settledRss(child.pid)), split: rssSplit(child.pid) };
    const page = await get(`http://127.0.0.1:${port}/`);
    if (page.status !== 200) throw new Error(`/ answered ${page.status}`);
    const afterPage = { ...(await settledRss(child.pid)), split: rssSplit(child.pid) };
    const health = await get(`http://127.0.0.1:${port}/api/health`);
    const line = (what, rss) =>
      `idle RSS ${what}: studio ${rss.server.toFixed(0)} MiB; target ≤ ${TARGET_RSS_MIB} MiB: ${mark(rss.server <= TARGET_RSS_MIB)}; its children (tool hosts) ${rss.children.toFixed(0)} MiB in ${rss.count} processes, counted apart`;
    const split = ({ split: at }) =>
      at ? `  of which PGlite's WebAssembly memory ${at.wasm.toFixed(0)} MiB, mapped from files (Node's code) ${at.files.toFixed(0)} MiB, the rest (V8's heap, malloc) ${at.rest.toFixed(0)} MiB` : "  (no /proc/<pid>/smaps to split it)";
    console.log(line("after start settles, no request yet", idle));
    console.log(split(idle));
    console.log(line(`after a first page (${new URL(page.url).pathname})`, afterPage));
    console.log(split(afterPage));
    console.log(`/api/health after the page: ${health.status} ${health.body}`);
    if (health.status !== 200) failed = true;
  } finally {
    await stop(child);
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}

const after = checkoutFiles();
const left = [...after].filter(([file, stamp]) => before.get(file) !== stamp).map(([file]) => file);
if (left.length > 0) {
  console.log(`the run wrote into the checkout: ${left.slice(0, 10).map((file) => path.relative(root, file)).join(", ")}`);
  failed = true;
} else console.log("the checkout: nothing written by the run");

const stats = JSON.parse(fs.readFileSync(path.join(root, ".next", "diagnostics", "route-bundle-stats.json"), "utf8"));
for (const route of ["/", "/tools"]) {
  const entry = stats.find((s) => s.route === route);
  if (!entry) {
    console.log(`${route}: not in Next's route-bundle-stats.json`);
    continue;
  }
  const gzip = entry.firstLoadChunkPaths.reduce(
    (sum, chunk) => sum + zlib.gzipSync(fs.readFileSync(path.join(root, chunk))).length,
    0,
  );
  console.log(
    `first-load JS of ${route}: ${(gzip / 1024).toFixed(1)} kB gzip (${(entry.firstLoadUncompressedJsBytes / 1024).toFixed(1)} kB raw, ${entry.firstLoadChunkPaths.length} chunks)`,
  );
}
if (failed) process.exitCode = 1;
