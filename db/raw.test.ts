// A statement as text and parameters reads its values back as they were sent, on both drivers (R-events-text-statement).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env";
import { openDatabase, type Database } from "./client";
import { Params, rawQuery } from "./raw";

const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
const kinds = [{ kind: "PGlite", databaseUrl: undefined }, ...(databaseUrl ? [{ kind: "PostgreSQL", databaseUrl }] : [])];

describe.each(kinds)("a statement as text on $kind (R-events-text-statement)", ({ databaseUrl }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-raw-"));
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("takes each parameter as a value, never as part of the statement, and casts it to its type", async () => {
    database = await openDatabase({ dataDir: dir, databaseUrl });
    const p = new Params();
    const at = new Date("2026-12-03T17:20:00.123Z");
    const tricky = `it's $1 -- not a comment'); drop table run_events; --`;
    const text =
      `SELECT ${p.add(tricky, "text")} AS words, ${p.add(42, "integer")} AS n, ${p.add(at, "timestamptz")} AS at, ` +
      `${p.json({ a: [1, "two", null], "é": "ü" })} AS data, ${p.json(null)} AS nothing, ${p.add(undefined, "text")} AS missing, ` +
      `${p.add("6f1c0a52-8d0e-4c1e-9a55-0f6b6f0c2b11", "uuid")} AS id`;
    const [row] = await rawQuery<Record<string, unknown>>(database.db, text, p);
    expect(row!.words).toBe(tricky);
    expect(Number(row!.n)).toBe(42);
    expect(new Date(row!.at as string | Date).toISOString()).toBe(at.toISOString());
    expect(row!.data).toEqual({ a: [1, "two", null], "é": "ü" });
    expect(row!.nothing).toBeNull();
    expect(row!.missing).toBeNull();
    expect(row!.id).toBe("6f1c0a52-8d0e-4c1e-9a55-0f6b6f0c2b11");
  });

  it("refuses a value its type cannot hold, as the database's error", async () => {
    const p = new Params();
    await expect(rawQuery(database!.db, `SELECT ${p.add("not a number", "integer")} AS n`, p)).rejects.toThrow();
  });
});
