// The embedded database in a worker thread of its own, for db/pglite-thread.ts (R-ops-pglite-thread): PGlite's
// PostgreSQL runs every statement synchronously in the thread that holds it, so here it works on the machine's other
// core while the studio's thread reads sockets, instead of stalling it. Messages in: { id, op, ... }; out: { id, ok }
// or { id, error }, and { listener, payload } for a notification. Statements keep the order they arrive in, since
// PGlite's own lock serves them first come, first served; a statement outside a transaction waits for it to end.
import { parentPort, workerData } from "node:worker_threads";
// A static import: the built studio bundles this file, and its bundler refuses a module named at run time.
import { PGlite } from "@electric-sql/pglite";
import { compilePostgres, START_PARAMS } from "./pglite-early.mjs";

/**
 * Open transactions by id: `tx` and its ends once PGlite has begun it, and `course`, its whole way to COMMIT or
 * ROLLBACK, which the end's answer waits for.
 */
const transactions = new Map();
/** Unsubscribe functions of LISTENs, by listener id. */
const listeners = new Map();
/** A rollback asked for by the studio's thread, thrown through PGlite's transaction so that it rolls back. */
const ROLLBACK = Symbol("rollback");

/** PGlite's options for a statement: the type ids whose values stay as PostgreSQL's text, as drizzle asks. */
const options = new Map();
function optionsOf(message) {
  if (!message.rowMode && !message.asText) return undefined;
  const key = `${message.rowMode} ${message.asText}`;
  let made = options.get(key);
  if (!made) {
    const parsers = {};
    for (const oid of message.asText ?? []) parsers[oid] = (value) => value;
    made = { rowMode: message.rowMode, parsers };
    options.set(key, made);
  }
  return made;
}

/**
 * What may cross back to the studio's thread of an error: its message and PostgreSQL's fields, never the statement's
 * options (functions do not cross) nor its parameters (they may be a secret's ciphertext; the studio never shows them).
 */
function errorOf(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const out = { name: err.name, message: err.message };
  for (const key of ["code", "detail", "hint", "position", "severity", "schema", "table", "column", "dataType", "constraint", "routine", "where"]) {
    const value = err[key];
    if (typeof value === "string" || typeof value === "number") out[key] = value;
  }
  return out;
}

/**
 * The database: opened on the folder and with the options given at the thread's start; or, for a thread started before
 * Next loaded (R-boot-db-first), opened at once on the folder the server locked, or on the folder the studio's first
 * message names while PostgreSQL's WebAssembly compiles here meanwhile. An early thread answers `ready` only once the
 * studio has taken it (its first message), so no answer goes out before anyone listens.
 */
async function opening() {
  if (!workerData.early) return new PGlite(workerData.folder, { startParams: workerData.startParams, pgliteWasmModule: workerData.pgliteWasmModule });
  const taken = () => new Promise((resolve) => parentPort.once("message", resolve));
  if (workerData.folder) {
    const early = new PGlite(workerData.folder, { startParams: [...PGlite.defaultStartParams, ...START_PARAMS] });
    // A failed open is answered once taken, as any thread's is, not left to end the thread unheard while it waits.
    early.waitReady.catch(() => undefined);
    const first = await taken();
    if (first.op === "close-early") {
      // Nobody took it: close PostgreSQL cleanly (R-ops-clean-close), and the thread ends.
      await early.close();
      parentPort.close();
      return null;
    }
    return early;
  }
  const compiling = compilePostgres();
  // Not awaited when the studio sends a compiled module of its own (a folder it has just created).
  compiling.catch(() => undefined);
  const given = await taken();
  return new PGlite(given.folder, { startParams: given.startParams, pgliteWasmModule: given.pgliteWasmModule ?? (await compiling) });
}

const db = await opening();

/** Runs a transaction whose statements the studio's thread sends one by one, until it asks to end it. */
function begin(message, reply) {
  const entry = { tx: null, commit: null, rollback: null, course: null };
  transactions.set(message.tx, entry);
  entry.course = db
    .transaction(
      (tx) =>
        new Promise((resolve, reject) => {
          Object.assign(entry, { tx, commit: resolve, rollback: () => reject(ROLLBACK) });
          reply({ ok: true });
        }),
    )
    .catch((err) => {
      if (err !== ROLLBACK) throw err;
    })
    .finally(() => transactions.delete(message.tx));
  // A BEGIN that failed never reached the callback: the studio's thread hears of it as the begin's answer.
  entry.course.catch((err) => {
    if (!entry.tx) reply({ error: errorOf(err) });
  });
}

async function handle(message) {
  const open = message.tx === undefined ? null : transactions.get(message.tx);
  const within = message.tx === undefined ? db : open?.tx;
  if (!within) throw new Error("The transaction has ended.");
  switch (message.op) {
    case "query":
      return within.query(message.sql, message.params, optionsOf(message));
    case "exec":
      return within.exec(message.sql, optionsOf(message));
    case "end":
      if (message.commit) open.commit();
      else open.rollback();
      await open.course;
      return null;
    case "listen": {
      const stop = await db.listen(message.channel, (payload) => parentPort.postMessage({ listener: message.listener, payload }));
      listeners.set(message.listener, stop);
      return null;
    }
    case "unlisten": {
      const stop = listeners.get(message.listener);
      listeners.delete(message.listener);
      await stop?.();
      return null;
    }
    case "close":
      await db.close();
      return null;
    default:
      throw new Error(`Unknown operation ${message.op}`);
  }
}

parentPort.on("message", (message) => {
  const reply = (answer) => parentPort.postMessage({ id: message.id, ...answer });
  if (message.op === "begin") return begin(message, reply);
  handle(message).then(
    (ok) => reply({ ok }),
    (err) => reply({ error: errorOf(err) }),
  );
});

if (db) {
  try {
    await db.waitReady;
    parentPort.postMessage({ ready: true });
  } catch (err) {
    parentPort.postMessage({ ready: false, error: errorOf(err) });
  }
}
