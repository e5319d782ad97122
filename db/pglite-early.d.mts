// The types of db/pglite-early.mjs (R-boot-db-first).
import type { Worker } from "node:worker_threads";

export const START_PARAMS: string[];
export function startDatabaseThread(workerData: Record<string, unknown>): Worker;
export function startEarlyThread(dataDir?: string, untakenMs?: number): void;
export function takeEarlyThread(folder: string): { worker: Worker; release: (() => void) | null } | null;
export function compilePostgres(): Promise<WebAssembly.Module>;
