// The embedded database's thread started before anything knows its folder (R-boot-db-first): scripts/serve.mjs starts
// it before it imports Next, so the thread's own start (Node's, PGlite's modules, compiling PostgreSQL's WebAssembly)
// runs on the other core while Next loads; db/pglite-thread.ts takes it once the studio has its folder and its lock,
// and tells it which folder to open. Plain JavaScript, shared by both: serve.mjs is not bundled.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

const EARLY = Symbol.for("quiver.pglite-early-thread");

/**
 * How the database's thread is started, early or not: neither the studio's loader flags (tsx in tests and benchmarks:
 * tens of MiB more) nor its heap sizes, since it runs one plain module, and a small young generation keeps its idle
 * memory near PGlite's own.
 */
export function startDatabaseThread(workerData) {
  return new Worker(path.join(process.cwd(), "db", "pglite-worker.mjs"), { workerData, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 2 } });
}

/** How long an early thread waits to be taken: a studio whose database is elsewhere after all never takes it. */
const UNTAKEN_MS = 30_000;

/** Starts the thread with no folder yet and leaves it for takeEarlyThread(); ended if nobody takes it in time. */
export function startEarlyThread() {
  const worker = startDatabaseThread({ early: true });
  // It waits: an early thread must never keep the process alive.
  worker.unref();
  const early = { worker, ended: false };
  worker.once("exit", () => (early.ended = true));
  // A thread that failed before it was taken is not taken: the studio starts one of its own, which says why.
  worker.on("error", () => undefined);
  globalThis[EARLY] = early;
  // Taken here or by the studio, on this thread either way: never both.
  setTimeout(() => void takeEarlyThread()?.terminate(), UNTAKEN_MS).unref();
}

/** The early thread if one is waiting, taken (only once); null otherwise. */
export function takeEarlyThread() {
  const early = globalThis[EARLY];
  delete globalThis[EARLY];
  return early && !early.ended ? early.worker : null;
}

/**
 * PostgreSQL's WebAssembly, compiled, for a thread that opens a folder with it. Resolved from the studio's folder, not
 * from this file's own URL: the built studio bundles this file, and a bundle has no import.meta.resolve.
 */
export async function compilePostgres() {
  const pglite = createRequire(path.join(process.cwd(), "package.json")).resolve("@electric-sql/pglite");
  return WebAssembly.compile(await fs.promises.readFile(path.join(path.dirname(pglite), "pglite.wasm")));
}
