#!/usr/bin/env node
// `npm start`: builds the studio when there is no build or the sources are newer than it, then
// serves the build. Signals go to the server so it closes the embedded database cleanly: without a
// clean close PGlite's serial ids jump on the next start.
import "./node-floor.mjs";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serverEnv } from "./server-process.mjs";

console.log(`Quiver on Node ${process.version}`);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const buildId = path.join(root, ".next", "BUILD_ID");
const sourceDirs = ["app", "components", "server", "db", "public"];
const sourceFiles = ["package-lock.json", "next.config.mjs", "instrumentation.ts", "postcss.config.mjs", "tsconfig.json"];

function newestMtime(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) {
    if (name === "node_modules" || name === "__pycache__" || name === "toolhost") continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

function buildIsCurrent() {
  if (!fs.existsSync(buildId)) return false;
  const built = fs.statSync(buildId).mtimeMs;
  const sources = [...sourceDirs, ...sourceFiles].map((name) => newestMtime(path.join(root, name)));
  return Math.max(...sources) <= built;
}

const childEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_MANUAL_SIG_HANDLE: "1" };

if (!buildIsCurrent()) {
  console.log("[quiver] building the studio (about a minute, once)…");
  const built = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, env: childEnv, stdio: "inherit" });
  if (built.status !== 0) {
    console.error("[quiver] the build failed; the lines above say why.");
    process.exit(built.status ?? 1);
  }
}

// scripts/serve.mjs serves the build as `next start` would, and tells the routes each request's socket address.
// Its environment holds malloc to two arenas and fixed thresholds (R-boot-malloc).
const server = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), ...process.argv.slice(2)], {
  cwd: root,
  env: serverEnv(childEnv),
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
