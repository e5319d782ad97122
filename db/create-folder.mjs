// Creates a new embedded database folder in a worker thread of its own, for db/client.ts (R-ops-pglite-create-apart):
// PGlite runs initdb in a second instance with WebAssembly memories of its own, and the worker's end frees them. The
// compiled PostgreSQL module is handed back, so the instance that opens the folder does not compile it again.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

// Resolved from the studio's folder, not from this file's own URL: the built studio bundles this file, and a bundle
// has no import.meta.resolve.
const pglite = createRequire(path.join(process.cwd(), "package.json")).resolve("@electric-sql/pglite");
const pgliteWasmModule = await WebAssembly.compile(fs.readFileSync(path.join(path.dirname(pglite), "pglite.wasm")));
const client = new PGlite(workerData.folder, { startParams: workerData.startParams, pgliteWasmModule });
await client.waitReady;
await client.close();
parentPort.postMessage(pgliteWasmModule);
