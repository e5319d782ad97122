// The embedded database's folder lock. PGlite does not lock its folder, and a second process
// opening a live folder corrupts it for good (R-ops-pglite-lock), so the studio holds this lock. Plain JavaScript, as the
// server takes it before it loads Next when it starts the database early (R-boot-db-first).
import fs from "node:fs";
import path from "node:path";

export class DataFolderLockedError extends Error {
  code = "DATA_FOLDER_LOCKED";
  constructor(folder, pid) {
    super(
      `The data folder ${folder} is in use by another Quiver process (pid ${pid}). ` +
        `Stop that process, or start this one with another QUIVER_DATA_DIR.`,
    );
    this.folder = folder;
    this.pid = pid;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM means the process exists but belongs to someone else: still alive.
    return err.code === "EPERM";
  }
}

/** Takes the lock file in `folder`, clearing a stale one whose process is gone; returns its release. */
export function acquireLock(folder) {
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, "quiver.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => {
        try {
          if (fs.readFileSync(file, "utf8").trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      const holder = Number.parseInt(fs.readFileSync(file, "utf8").trim(), 10);
      // Our own pid counts too: it means a connection this process opened and has not closed.
      if (Number.isInteger(holder) && (holder === process.pid || isAlive(holder))) {
        throw new DataFolderLockedError(folder, holder);
      }
      fs.unlinkSync(file);
    }
  }
  throw new Error(`Could not take the lock in ${folder}; remove ${file} if no Quiver process is running.`);
}
