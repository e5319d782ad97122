// The types of db/pglite-early.mjs (R-boot-db-first).
import type { Worker } from "node:worker_threads";

export function startDatabaseThread(workerData: Record<string, unknown>): Worker;
export function startEarlyThread(): void;
export function takeEarlyThread(): Worker | null;
export function compilePostgres(): Promise<WebAssembly.Module>;
