// One change at a time per tree file (R-save-one-at-a-time), so a save's compare-and-write is atomic
// (R-save-compare-and-write).
//
// Why a lock file rather than a database lock: the tree is a folder on disk, and whoever shares the folder
// must be kept out, whatever database they use. A PostgreSQL advisory lock holds only among processes on one
// PostgreSQL, and the embedded database (PGlite) opens in one process only, so two studios each with its own
// data folder, or one on PGlite and one on PostgreSQL, can still share one tree checkout. A lock file beside
// the tree file, taken with mkdir (atomic on local and network file systems), keeps out all of them.
// proper-lockfile refreshes its lock while held and takes over one left by a process that died, once it is
// older than STALE_MS, so a crash never blocks a file for good.
//
// Inside one process the lock file is not enough on its own: proper-lockfile refuses a second lock of a file
// this process holds (the second caller would poll until the first releases), so changes queue in memory
// first, in order, and only the head of each file's queue asks for the lock file.
import path from "node:path";
import lockfile from "proper-lockfile";
import { DomainError } from "@/server/errors";

const STALE_MS = 5_000;
// Polls for about 11 s in all: long enough to take over a dead process's lock (STALE_MS), bounded all the same.
const RETRIES = { retries: 60, factor: 1.5, minTimeout: 10, maxTimeout: 200 };

// On globalThis: Next bundles its entry points apart, and each bundle would otherwise keep its own queues.
const holder = globalThis as typeof globalThis & { __quiverFileQueues?: Map<string, Promise<void>> };
const queues = (holder.__quiverFileQueues ??= new Map());

async function inOrder<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  let done!: () => void;
  const tail = before.then(() => new Promise<void>((resolve) => (done = resolve)));
  queues.set(key, tail);
  await before;
  try {
    return await work();
  } finally {
    done();
    if (queues.get(key) === tail) queues.delete(key);
  }
}

function busy(name: string): DomainError {
  return new DomainError(
    "CONFLICT",
    "BUSY",
    `${name} is being changed by another studio process and did not come free in time; save again in a moment.`,
  );
}

/** Throws, once the lock file was taken over while held: call it just before a change becomes visible. */
export type StillHeld = () => void;

async function locked<T>(tree: string, name: string, work: (held: StillHeld) => Promise<T>): Promise<T> {
  const file = path.join(tree, name);
  let lost: Error | null = null;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      // Hidden, and a folder: the tree's listings, the tool host and publishing count only *.py files.
      lockfilePath: path.join(tree, `.${name}.lock`),
      realpath: false,
      stale: STALE_MS,
      retries: RETRIES,
      onCompromised: (err) => (lost = err),
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOCKED") throw busy(name);
    throw err;
  }
  try {
    // Taken over while held means this process stalled past STALE_MS and another change may be running.
    return await work(() => {
      if (lost) throw busy(name);
    });
  } finally {
    await release().catch(() => undefined);
  }
}

/**
 * Runs `work` while holding every named file of the tree, against this process and any other sharing the
 * tree. Several names are taken in one order, so two changes that both take two never wait on each other.
 * A missing tree folder fails with ENOENT, as reading a file in it would.
 */
export async function withFileLocks<T>(tree: string, names: string[], work: (held: StillHeld) => Promise<T>): Promise<T> {
  const sorted = [...new Set(names)].sort();
  const checks: StillHeld[] = [];
  const held: StillHeld = () => checks.forEach((check) => check());
  const take = (i: number): Promise<T> => {
    if (i === sorted.length) return work(held);
    const name = sorted[i]!;
    return inOrder(path.join(path.resolve(tree), name), () =>
      locked(tree, name, (check) => {
        checks.push(check);
        return take(i + 1);
      }),
    );
  };
  return take(0);
}
