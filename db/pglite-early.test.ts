// The embedded database's thread started before Next loads (R-boot-db-first), as db/client.ts takes it: on an existing
// folder it opens at once under the folder's lock, which the studio's database then holds; otherwise it waits to be
// told a folder; it never opens a folder another process holds, and one nobody takes closes and lets the lock go.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client";
import { DataFolderLockedError } from "./lock.mjs";
import { startEarlyThread, takeEarlyThread } from "./pglite-early.mjs";

let root: string;
type Database = Awaited<ReturnType<typeof openDatabase>>;
const rows = async (database: Database, query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: unknown[] }).rows;
const lockOf = (dataDir: string) => path.join(dataDir, "quiver.lock");
const lockHolder = (dataDir: string) => (fs.existsSync(lockOf(dataDir)) ? fs.readFileSync(lockOf(dataDir), "utf8").trim() : null);

/** A data folder holding a migrated database, closed. */
async function existing(name: string): Promise<string> {
  const dataDir = path.join(root, name);
  await (await openDatabase({ dataDir })).close();
  return dataDir;
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-pglite-early-"));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the database's thread started before Next loads (R-boot-db-first)", () => {
  it("opens an existing folder at once under its lock, and the studio's database takes it, lock and all", async () => {
    const dataDir = await existing("existing");
    startEarlyThread(dataDir);
    // The lock is taken before anything else can open the folder.
    expect(lockHolder(dataDir)).toBe(String(process.pid));
    const database = await openDatabase({ dataDir });
    try {
      expect(takeEarlyThread(path.join(dataDir, "db"))).toBeNull();
      expect(await rows(database, sql`select 41 + 1 as n`)).toEqual([{ n: 42 }]);
      expect(lockHolder(dataDir)).toBe(String(process.pid));
    } finally {
      await database.close();
    }
    expect(lockHolder(dataDir)).toBeNull();
  });

  it("waits to be told a folder when there is no database yet, and the studio's new one is opened in it", async () => {
    const dataDir = path.join(root, "new");
    startEarlyThread(dataDir);
    expect(lockHolder(dataDir)).toBeNull();
    const database = await openDatabase({ dataDir });
    try {
      expect(await rows(database, sql`select count(*)::int as n from runs`)).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
    }
  });

  it("leaves a folder another process holds alone, and the studio's open says it is in use", async () => {
    const dataDir = await existing("held");
    // The parent of this test process is alive and is not this process.
    fs.writeFileSync(lockOf(dataDir), String(process.ppid));
    startEarlyThread(dataDir);
    await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(DataFolderLockedError);
    expect(lockHolder(dataDir)).toBe(String(process.ppid));
    expect(takeEarlyThread(path.join(dataDir, "db"))).toBeNull();
    fs.rmSync(lockOf(dataDir));
  });

  it("closes a database nobody took, lets its lock go, and the folder opens again as it was", async () => {
    const dataDir = await existing("untaken");
    startEarlyThread(dataDir, 200);
    expect(lockHolder(dataDir)).toBe(String(process.pid));
    await expect.poll(() => lockHolder(dataDir), { timeout: 15_000 }).toBeNull();
    expect(takeEarlyThread(path.join(dataDir, "db"))).toBeNull();
    const database = await openDatabase({ dataDir });
    await database.close();
  });

  it("ends a thread that opened another folder than the studio's, whose database starts a thread of its own", async () => {
    const other = await existing("other");
    const dataDir = await existing("studio");
    startEarlyThread(other);
    const database = await openDatabase({ dataDir });
    try {
      expect(await rows(database, sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
    await expect.poll(() => lockHolder(other), { timeout: 15_000 }).toBeNull();
  });
});
