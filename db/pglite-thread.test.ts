// The embedded database in a thread of its own (R-ops-pglite-thread): statements keep the order they were sent in,
// one sent while a transaction is open waits for its end, a transaction commits or rolls back as PGlite's own does,
// PostgreSQL's errors arrive with their code, and the studio's thread stays free while a statement runs; a thread
// started before its folder was known opens the folder it is given (R-boot-db-first).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDatabaseThread } from "./pglite-early.mjs";
import { PGliteThread } from "./pglite-thread";

let folder: string;
let db: PGliteThread;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-pglite-thread-"));
  db = new PGliteThread(path.join(folder, "db"), { startParams: PGlite.defaultStartParams });
  await db.waitReady;
  await db.exec("create table t (n int primary key)");
}, 60_000);
afterAll(async () => {
  await db?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

describe("the embedded database in a thread of its own (R-ops-pglite-thread)", () => {
  it("answers statements in the order they were sent", async () => {
    const order: number[] = [];
    await Promise.all(Array.from({ length: 50 }, (_, i) => db.query<{ i: number }>("select $1::int as i", [i]).then((r) => order.push(r.rows[0]!.i))));
    expect(order).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it("keeps a statement sent while a transaction is open out of it, until it ends", async () => {
    const seen: string[] = [];
    const tx = db.transaction(async (t) => {
      await t.query("insert into t values (1)");
      // The statement below is sent now, and must neither see nor join this transaction's row before it commits.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await t.query("insert into t values (2)");
      seen.push("committed");
    });
    const outside = db.query<{ n: number }>("select count(*)::int as n from t").then((r) => seen.push(`counted ${r.rows[0]!.n}`));
    await Promise.all([tx, outside]);
    expect(seen).toEqual(["committed", "counted 2"]);
  });

  it("rolls a transaction back when its callback throws, or asks to", async () => {
    await expect(
      db.transaction(async (t) => {
        await t.query("insert into t values (3)");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await db.transaction(async (t) => {
      await t.query("insert into t values (4)");
      await t.rollback();
    });
    const { rows } = await db.query<{ n: number }>("select n from t order by n");
    expect(rows.map((r) => r.n)).toEqual([1, 2]);
  });

  it("gives PostgreSQL's error with its code and fields, and goes on serving", async () => {
    const error = (await db.query("insert into t values (1)").catch((err: unknown) => err)) as Record<string, unknown>;
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: "23505", constraint: "t_pkey", table: "t" });
    expect(error.params).toBeUndefined();
    expect((await db.query<{ one: number }>("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });

  it("keeps the values drizzle asks for as PostgreSQL's text, and refuses a parser that changes them", async () => {
    const asText = { parsers: { 1184: (value: string) => value } };
    const { rows } = await db.query<{ at: unknown }>("select '2026-12-02 10:00:00+00'::timestamptz as at", [], asText);
    expect(rows[0]!.at).toBe("2026-12-02 10:00:00+00");
    expect(() => db.query("select now()", [], { parsers: { 1184: (value: string) => new Date(value) } })).toThrow(/cannot run/);
  });

  it("delivers a channel's notifications until told to stop", async () => {
    const heard: string[] = [];
    const stop = await db.listen("news", (payload) => heard.push(payload));
    await db.query("select pg_notify('news', 'one')");
    await expect.poll(() => heard).toEqual(["one"]);
    await stop();
    await db.query("select pg_notify('news', 'two')");
    await db.query("select 1");
    expect(heard).toEqual(["one"]);
  });

  it("leaves the studio's thread free while a long statement runs", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await db.query("select pg_sleep(0.3)");
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(20);
  });
});

describe("a thread started before its folder is known (R-boot-db-first)", () => {
  it("opens the folder it is then told, and serves it as a thread started with it does", async () => {
    const early = startDatabaseThread({ early: true });
    const thread = new PGliteThread(path.join(folder, "early"), { startParams: PGlite.defaultStartParams, early });
    try {
      await thread.waitReady;
      await thread.exec("create table opened_early (n int)");
      await thread.query("insert into opened_early values ($1)", [7]);
      expect((await thread.query<{ n: number }>("select n from opened_early")).rows).toEqual([{ n: 7 }]);
    } finally {
      await thread.close();
    }
    expect(fs.existsSync(path.join(folder, "early", "PG_VERSION"))).toBe(true);
  });
});
