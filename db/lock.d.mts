// The types of db/lock.mjs (R-ops-pglite-lock).
export class DataFolderLockedError extends Error {
  readonly code: "DATA_FOLDER_LOCKED";
  readonly folder: string;
  readonly pid: number;
  constructor(folder: string, pid: number);
}
/** Takes the lock file in `folder`, clearing a stale one whose process is gone; returns its release. */
export function acquireLock(folder: string): () => void;
