#!/usr/bin/env node
// `npm run bench:cli`: how long `npx quiver call <file tool>` takes from start to exit (R-cli-call-fast), N runs
// each, interleaved in one run so every path sees the same machine: the plain ESM path (the one people get), the full
// TypeScript path it replaced (QUIVER_CLI_FULL=1), both again without npx (`quiver` on PATH), and npx's own start with
// nothing to run. Median and p95 of each, beside the 300 ms target for `npx quiver call`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fmtMs, median, p95 } from "./stats.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const TARGET_MS = 300;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-bench-cli-"));
const tree = path.join(dir, "tools");
fs.mkdirSync(tree);
fs.writeFileSync(
  path.join(tree, "notes.py"),
  `"""Notes."""\n\n\ndef read(subject: str) -> str:\n    """Read one note.\n\n    Args:\n        subject: Which.\n    """\n    return f"no note about {subject}"\n`,
);
const env = { ...process.env, QUIVER_DATA_DIR: path.join(dir, "data"), npm_config_update_notifier: "false" };
const call = ["call", tree, "notes__read", "--args", '{"subject": "todo"}'];

const paths = [
  { name: "npx quiver call (plain ESM)", command: "npx", args: ["quiver", ...call], env: {} },
  { name: "npx quiver call (old: tsx + TypeScript)", command: "npx", args: ["quiver", ...call], env: { QUIVER_CLI_FULL: "1" } },
  { name: "quiver call, no npx (plain ESM)", command: process.execPath, args: [path.join(root, "bin", "quiver.mjs"), ...call], env: {} },
  { name: "quiver call, no npx (old)", command: process.execPath, args: [path.join(root, "bin", "quiver.mjs"), ...call], env: { QUIVER_CLI_FULL: "1" } },
  { name: "npx alone (npx -c true)", command: "npx", args: ["-c", "true"], env: {} },
];

function once(p) {
  const started = process.hrtime.bigint();
  const done = spawnSync(p.command, p.args, { cwd: root, env: { ...env, ...p.env }, encoding: "utf8", timeout: 60_000 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (done.status !== 0) throw new Error(`${p.name} exited ${done.status}: ${done.stderr || done.stdout}`);
  if (p.args.includes("notes__read") && done.stdout !== "no note about todo\n") throw new Error(`${p.name} printed ${JSON.stringify(done.stdout)}`);
  return ms;
}

try {
  for (const p of paths) once(p); // warm the disk cache and the host's work folder
  const times = paths.map(() => []);
  for (let i = 0; i < RUNS; i++) paths.forEach((p, j) => times[j].push(once(p)));
  console.log(`quiver call start to exit, ${RUNS} runs each (load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, ${os.cpus().length} cores)`);
  paths.forEach((p, j) => {
    const target = j === 0 ? `   target ${TARGET_MS} ms median: ${median(times[j]) <= TARGET_MS ? "met" : "not met"}` : "";
    console.log(`  ${p.name.padEnd(42)} median ${fmtMs(median(times[j])).padStart(9)}   p95 ${fmtMs(p95(times[j])).padStart(9)}${target}`);
  });
  // npm runs a package's own bin by reading its whole dependency tree first, which `npx -c true` does not show.
  const ours = median(times[2]);
  console.log(`  (npx alone is ${fmtMs(median(times[4]))}; running a package's own bin costs npm more than that)`);
  console.log(`  Quiver's part, the call without npx: median ${fmtMs(ours)} (target ${TARGET_MS} ms: ${ours <= TARGET_MS ? "met" : "not met"})`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
