// The embedded database's thread started before Next loads (R-boot-db-first): scripts/serve.mjs starts it before it
// imports Next, so the thread's own start (Node's, PGlite's modules, PostgreSQL's WebAssembly and, on a folder the
// server could lock, PostgreSQL's own boot) runs on the other core while Next loads. db/client.ts takes it when it
// opens the database. Plain JavaScript, shared by both: serve.mjs is not bundled.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { acquireLock } from "./lock.mjs";

const EARLY = Symbol.for("quiver.pglite-early-thread");

/**
 * PostgreSQL's settings beyond PGlite's own start parameters. Its buffer pool is WebAssembly memory resident from the
 * start (128 MB of RSS at PostgreSQL's default, measured); the operating system caches the folder's files beneath it
 * anyway (R-ops-pglite-buffers).
 */
export const START_PARAMS = ["-c", "shared_buffers=32MB"];

/** How long an early thread waits to be taken: a studio that fails before it opens its database never takes it. */
const UNTAKEN_MS = 30_000;

/**
 * How the database's thread is started, early or not: neither the studio's loader flags (tsx in tests and benchmarks:
 * tens of MiB more) nor its heap sizes, since it runs one plain module, and a small young generation keeps its idle
 * memory near PGlite's own.
 */
export function startDatabaseThread(workerData) {
  return new Worker(path.join(process.cwd(), "db", "pglite-worker.mjs"), { workerData, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 2 } });
}

/**
 * Starts the thread and leaves it for takeEarlyThread(). Given the data folder of a database that exists, and its
 * lock, the thread opens it at once; otherwise it only gets ready to open whichever folder it is told. A thread nobody
 * takes is ended after `untakenMs` (closing its database cleanly first, and then releasing the lock), and it never
 * keeps the process alive.
 */
export function startEarlyThread(dataDir, untakenMs = UNTAKEN_MS) {
  let opened = null;
  if (dataDir && fs.existsSync(path.join(dataDir, "db", "PG_VERSION"))) {
    try {
      opened = { folder: path.join(dataDir, "db"), release: acquireLock(dataDir) };
    } catch {
      // Held by another process: the studio's own open says so.
    }
  }
  const worker = startDatabaseThread(opened ? { early: true, folder: opened.folder } : { early: true });
  worker.unref();
  const early = { worker, ended: false, opened };
  worker.once("exit", () => (early.ended = true));
  // A thread that failed before it was taken is not taken: the studio starts one of its own, which says why.
  worker.on("error", () => undefined);
  globalThis[EARLY] = early;
  // Ended here or taken by the studio, on this thread either way: never both.
  setTimeout(() => {
    if (globalThis[EARLY] !== early) return;
    delete globalThis[EARLY];
    end(early);
  }, untakenMs).unref();
}

/** Ends an early thread nobody uses: its database closed cleanly, then the lock it held released. */
function end(early) {
  if (!early.opened) return void early.worker.terminate();
  early.worker.once("exit", () => early.opened.release());
  if (early.ended) early.opened.release();
  else early.worker.postMessage({ op: "close-early" });
}

/**
 * The early thread, taken (only once), for a database in `folder`: `release` is the lock's when the thread has
 * opened that folder already, and null when it waits to be told one. Null when no thread waits, or when the one
 * waiting opened another folder (it is then ended).
 */
export function takeEarlyThread(folder) {
  const early = globalThis[EARLY];
  delete globalThis[EARLY];
  if (!early) return null;
  if (early.ended || (early.opened && early.opened.folder !== folder)) {
    end(early);
    return null;
  }
  return { worker: early.worker, release: early.opened?.release ?? null };
}

/**
 * PostgreSQL's WebAssembly, compiled, for a thread that opens a folder with it. Resolved from the studio's folder, not
 * from this file's own URL: the built studio bundles this file, and a bundle has no import.meta.resolve.
 */
export async function compilePostgres() {
  const pglite = createRequire(path.join(process.cwd(), "package.json")).resolve("@electric-sql/pglite");
  return WebAssembly.compile(await fs.promises.readFile(path.join(path.dirname(pglite), "pglite.wasm")));
}
