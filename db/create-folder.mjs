// Creates a new embedded database folder in a worker thread of its own, for db/client.ts (R-ops-pglite-create-apart):
// PGlite runs initdb in a second instance with WebAssembly memories of its own, and the worker's end frees them. The
// compiled PostgreSQL module is handed back, so the instance that opens the folder does not compile it again.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { compilePostgres } from "./pglite-early.mjs";

const pgliteWasmModule = await compilePostgres();
const client = new PGlite(workerData.folder, { startParams: workerData.startParams, pgliteWasmModule });
await client.waitReady;
await client.close();
parentPort.postMessage(pgliteWasmModule);
