// The index on runs.status that the metrics' count of runs by status reads (R-metrics-status-index): migration 0019
// makes it on PGlite (also in a data folder made before it) and on PostgreSQL, and PostgreSQL's plan for the very query /api/metrics sends, over enough runs
// for the planner to choose, scans that index and not the table. The PostgreSQL half runs in a scratch database of its
// own, made beside DATABASE_URL's and dropped after, so no other test's rows or statistics move its plan.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { Client } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { defaultMigrationsDir, openDatabase, type Database } from "@/db/client";
import { parseEnv } from "@/server/env";
import { runsByStatusQuery, storedRunsByStatus } from "@/server/metrics/studio";

const made: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-status-idx-"));
  made.push(dir);
  return dir;
}
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** Rows of a raw statement: both drivers answer `{ rows }`, which the database type shared by both leaves unknown. */
async function rowsOf<Row>(database: Database, statement: SQL): Promise<Row[]> {
  return ((await database.db.execute(statement)) as unknown as { rows: Row[] }).rows;
}

/** The index's definition as the database holds it, or undefined. */
async function statusIndex(database: Database): Promise<string | undefined> {
  const rows = await rowsOf<{ indexdef: string }>(database, sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'runs' AND indexname = 'runs_status_idx'`);
  return rows[0]?.indexdef;
}

/** `n` runs of one agent, most of them ended as a studio's runs mostly are, in one statement. */
async function insertRuns(database: Database, n: number): Promise<void> {
  await database.db.execute(sql`
    INSERT INTO runs (agent_id, agent_version, declaration, started_by, status)
    SELECT ${randomUUID()}::uuid, 1, '{"name":"counted"}'::jsonb, 'test',
           (ARRAY['done','done','done','done','done','done','failed','cancelled','waiting','running'])[1 + i % 10]
    FROM generate_series(1, ${n}) AS i`);
}

/** The committed migrations as they stood before 0019, in a scratch folder: a studio's data folder made before it. */
function migrationsBefore0019(): string {
  const dir = path.join(dataDir(), "migrations");
  fs.cpSync(defaultMigrationsDir, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((entry) => entry.idx < 19);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

describe("the index on runs.status (PGlite)", () => {
  it("is added to a data folder made before it at its next start, and the count by status answers every status (R-metrics-status-index)", async () => {
    const dir = dataDir();
    const before = await openDatabase({ dataDir: dir, migrationsDir: migrationsBefore0019() });
    try {
      expect(await statusIndex(before)).toBeUndefined();
      await insertRuns(before, 50);
    } finally {
      await before.close();
    }
    const database = await openDatabase({ dataDir: dir });
    try {
      expect(await statusIndex(database)).toMatch(/USING btree \(status\)/);
      expect(await storedRunsByStatus(database.db)).toEqual([
        { status: "running", runs: 5 },
        { status: "waiting", runs: 5 },
        { status: "done", runs: 30 },
        { status: "failed", runs: 5 },
        { status: "cancelled", runs: 5 },
      ]);
    } finally {
      await database.close();
    }
  });
});

// vitest.config.mts hands DATABASE_URL over under this name; this file only borrows its server to make a database.
const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;

/**
 * The pool's last connections close a moment after its end resolves; a forced drop would cut them mid-goodbye and
 * fail the file with an error no test threw, so wait for them (at most 10 s).
 */
async function dropWhenLeft(admin: Client, name: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (err) {
      if (tries >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe.skipIf(!databaseUrl)("the index on runs.status (PostgreSQL)", () => {
  it("is what PostgreSQL's plan for the metrics' count by status scans, over 200000 runs (R-metrics-status-index)", { timeout: 120_000 }, async () => {
    const name = `quiver_status_idx_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    let database: Database | undefined;
    try {
      database = await openDatabase({ databaseUrl: url.toString(), dataDir: dataDir() });
      expect(await statusIndex(database)).toMatch(/USING btree \(status\)/);
      await insertRuns(database, 200_000);
      // What autovacuum does to a table in time: statistics for the planner, and the visibility map an index-only scan needs.
      await database.db.execute(sql`VACUUM ANALYZE runs`);

      const query = runsByStatusQuery(database.db).toSQL();
      const explained = await rowsOf<{ "QUERY PLAN": string }>(database, sql.raw(`EXPLAIN ${query.sql}`));
      const plan = explained.map((row) => row["QUERY PLAN"]).join("\n");
      expect(plan, plan).toMatch(/Index Only Scan using runs_status_idx on runs/);
      expect(plan, plan).not.toMatch(/Seq Scan on runs/);

      const counted = await storedRunsByStatus(database.db);
      expect(counted).toEqual([
        { status: "running", runs: 20_000 },
        { status: "waiting", runs: 20_000 },
        { status: "done", runs: 120_000 },
        { status: "failed", runs: 20_000 },
        { status: "cancelled", runs: 20_000 },
      ]);
    } finally {
      await database?.close();
      await dropWhenLeft(admin, name);
      await admin.end();
    }
  });
});
