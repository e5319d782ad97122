// The database layer on the embedded PGlite always, and on PostgreSQL when DATABASE_URL is set.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { DataFolderLockedError } from "@/db/lock";
import { audit } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { parseEnv } from "@/server/env";

const made: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-db-"));
  made.push(dir);
  return dir;
}
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe("the embedded database (PGlite)", () => {
  it("migrates a new data folder, nested folders included, and keeps rows across a restart", async () => {
    const dir = path.join(dataDir(), "nested", "data");
    const marker = randomUUID();
    const first = await openDatabase({ dataDir: dir });
    expect(first.kind).toBe("pglite");
    await recordAudit(first.db, { actor: "test", action: "test.persisted", target: marker });
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    const rows = await second.db.select().from(audit).where(eq(audit.target, marker));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: "test", action: "test.persisted", detail: {} });
    await second.close();
  });

  it("refuses to open a data folder another open studio holds, and opens it once released", async () => {
    const dir = dataDir();
    const first = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataFolderLockedError);
    await first.close();
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  it("applies the committed migrations again without change on every start", async () => {
    const dir = dataDir();
    await (await openDatabase({ dataDir: dir })).close();
    const reopened = await openDatabase({ dataDir: dir });
    await expect(reopened.db.select().from(audit)).resolves.toEqual([]);
    await reopened.close();
  });
});

// vitest.config.mts hands DATABASE_URL over under this name, so only this file writes to that database.
const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;

describe.skipIf(!databaseUrl)("PostgreSQL at DATABASE_URL", () => {
  it("runs the same migrations and stores and reads a row", async () => {
    const database = await openDatabase({ databaseUrl, dataDir: dataDir() });
    expect(database.kind).toBe("postgres");
    const marker = randomUUID();
    await recordAudit(database.db, { actor: "test", action: "test.persisted", target: marker, detail: { n: 1 } });
    const rows = await database.db.select().from(audit).where(eq(audit.target, marker));
    expect(rows).toEqual([expect.objectContaining({ action: "test.persisted", detail: { n: 1 } })]);
    await database.db.delete(audit).where(eq(audit.target, marker));
    await database.close();
  });
});
