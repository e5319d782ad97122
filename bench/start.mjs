#!/usr/bin/env node
// `npm run bench:start`: how long the built studio takes from start to its first 200 on `/`
// (median of 5 starts on a new data folder, and 5 on an existing one), and the first-load JavaScript of `/`
// and `/tools` as Next reports it (.next/diagnostics/route-bundle-stats.json), gzipped.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { fmtMs, median } from "./stats.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
// What `npm start` serves with, so the figure is the start a person gets (and requests resolve their address alike).
const serve = path.join(root, "scripts", "serve.mjs");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_MANUAL_SIG_HANDLE: "1", DATABASE_URL: "" };
const RUNS = 5;

if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.log("no build yet: running next build first");
  const built = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, env, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
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

async function timeOneStart(dataDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [serve, "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...env, QUIVER_DATA_DIR: dataDir },
    stdio: "ignore",
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error("the server exited before answering");
      if (performance.now() - started > 60_000) throw new Error("no 200 on / within 60 s");
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        await res.arrayBuffer();
        if (res.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
  }
}

// A first start creates the embedded database; later starts open the existing one.
const fresh = [];
const again = [];
for (let i = 0; i < RUNS; i++) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-bench-"));
  fresh.push(await timeOneStart(dataDir));
  again.push(await timeOneStart(dataDir));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const list = (times) => times.map((t) => t.toFixed(0)).join(", ");
console.log(`start to first 200 on /, new data folder: median ${fmtMs(median(fresh))} over ${RUNS} starts (${list(fresh)} ms)`);
console.log(`start to first 200 on /, existing data folder: median ${fmtMs(median(again))} over ${RUNS} starts (${list(again)} ms)`);

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
