import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { acquireLock, DataFolderLockedError } from "./lock.mjs";

const made: string[] = [];
function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-lock-"));
  made.push(dir);
  return dir;
}
afterEach(() => made.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe("the data folder lock", () => {
  it("refuses a second holder while the first process is alive, naming its pid", () => {
    const dir = folder();
    // The parent of this test process is alive and is not us: it stands for another studio.
    fs.writeFileSync(path.join(dir, "quiver.lock"), String(process.ppid));
    expect(() => acquireLock(dir)).toThrow(DataFolderLockedError);
    expect(() => acquireLock(dir)).toThrow(new RegExp(`pid ${process.ppid}`));
  });

  it("clears a stale lock whose process is gone", () => {
    const dir = folder();
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    fs.writeFileSync(path.join(dir, "quiver.lock"), gone);
    const release = acquireLock(dir);
    expect(fs.readFileSync(path.join(dir, "quiver.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "quiver.lock"))).toBe(false);
  });

  it("creates the folder and its parents", () => {
    const dir = path.join(folder(), "a", "b", "c");
    const release = acquireLock(dir);
    expect(fs.existsSync(path.join(dir, "quiver.lock"))).toBe(true);
    release();
  });
});
