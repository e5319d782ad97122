// Opens the studio's database: embedded PGlite in a folder by default, PostgreSQL when a URL is given.
// Both run the same schema and the same committed migrations.
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { Pool, type PoolClient } from "pg";
import * as schema from "./schema";
import { acquireLock } from "./lock.mjs";
import { START_PARAMS, takeEarlyThread } from "./pglite-early.mjs";
import { PGliteThread } from "./pglite-thread";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DbKind = "pglite" | "postgres";

/**
 * PostgreSQL's LISTEN/NOTIFY on one channel: how studio processes sharing a database tell each other what changed.
 * Absent on PGlite, which only one process can open.
 */
export type Channel = {
  /** Deliver each payload sent on the channel, by any process (this one included), until the returned stop. */
  listen(onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  notify(payload: string): Promise<void>;
};

export type Database = {
  db: Db;
  kind: DbKind;
  channel?: Channel;
  /** Closes the connection (and releases the data folder's lock); safe to call twice. */
  close(): Promise<void>;
};

export type OpenOptions = { databaseUrl?: string; dataDir: string; migrationsDir?: string };

export const defaultMigrationsDir = path.join(process.cwd(), "db", "migrations");

const CHANNEL = "quiver_runs";

/** LISTEN on a connection of its own, taken again if it drops; NOTIFY through the pool. */
function pgChannel(pool: Pool): Channel & { stopAll(): Promise<void> } {
  const listening = new Set<() => Promise<void>>();
  return {
    async stopAll() {
      await Promise.all([...listening].map((stop) => stop()));
    },
    async listen(onMessage) {
      let stopped = false;
      let client: PoolClient | null = null;
      const connect = async (): Promise<void> => {
        const taken = await pool.connect();
        taken.on("notification", (m) => {
          if (m.channel === CHANNEL && m.payload) onMessage(m.payload);
        });
        taken.on("error", () => {
          // The connection dropped: take another, unless listening has stopped.
          taken.release(true);
          if (client === taken) client = null;
          if (!stopped) setTimeout(() => void connect().catch(() => undefined), 1_000).unref();
        });
        await taken.query(`LISTEN ${CHANNEL}`);
        client = taken;
      };
      await connect();
      const stop = async () => {
        listening.delete(stop);
        stopped = true;
        const taken = client;
        client = null;
        if (!taken) return;
        await taken.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
        taken.release();
      };
      listening.add(stop);
      return stop;
    },
    async notify(payload) {
      await pool.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]);
    },
  };
}

/**
 * Whether the database already has every committed migration, in one query: drizzle's migrator reads and hashes every
 * file and runs five statements to find out (R-ops-migrations-check). Same test as drizzle's: pending when a journal
 * entry is newer than the last migration the database recorded. Any doubt (no table yet) says no, and the migrator runs.
 */
async function upToDate(query: (text: string) => Promise<{ rows: unknown[] }>, migrationsFolder: string): Promise<boolean> {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  try {
    const { rows } = await query("SELECT max(created_at) AS last FROM drizzle.__drizzle_migrations");
    const last = (rows[0] as { last: string | number | null } | undefined)?.last;
    return last !== null && last !== undefined && Number(last) >= newest;
  } catch {
    return false;
  }
}

/** PGlite's own start parameters and the studio's settings (R-ops-pglite-buffers), as an early thread has them. */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, ...START_PARAMS];

/**
 * Creates a new folder in a worker thread, to be opened here as an existing one, and returns the PostgreSQL module the
 * worker compiled; an existing folder is left alone (R-ops-pglite-create-apart). PGlite runs initdb in a second
 * instance, whose WebAssembly memories (about 200 MiB resident, measured) stayed in this process as garbage until a
 * full collection, which a studio busy with runs might not make for minutes.
 */
async function createFolder(folder: string): Promise<WebAssembly.Module | undefined> {
  if (fs.existsSync(path.join(folder, "PG_VERSION"))) return undefined;
  const worker = new Worker(path.join(process.cwd(), "db", "create-folder.mjs"), { workerData: { folder, startParams: PGLITE_START_PARAMS } });
  try {
    return await new Promise<WebAssembly.Module>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the worker creating it stopped (exit code ${code})`)));
    });
  } finally {
    await worker.terminate();
  }
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const migrationsFolder = options.migrationsDir ?? defaultMigrationsDir;
  if (options.databaseUrl) {
    const pool = new Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzlePg(pool, { schema });
    try {
      if (!(await upToDate((text) => pool.query(text), migrationsFolder))) await migratePg(db, { migrationsFolder });
    } catch (err) {
      await pool.end();
      throw explain(err, "PostgreSQL at DATABASE_URL");
    }
    let closed = false;
    const channel = pgChannel(pool);
    return {
      db: db as unknown as Db,
      kind: "postgres",
      channel,
      close: async () => {
        if (closed) return;
        closed = true;
        // A listening connection is checked out of the pool, which would otherwise wait for it.
        await channel.stopAll();
        await pool.end();
      },
    };
  }

  const folder = path.join(options.dataDir, "db");
  // The thread the server started before Next loaded (R-boot-db-first), holding this folder's lock when it has opened
  // the folder already.
  const early = takeEarlyThread(folder);
  let release: () => void;
  try {
    release = early?.release ?? acquireLock(options.dataDir);
  } catch (err) {
    await early?.worker.terminate();
    throw err;
  }
  // PGlite creates only the last folder of its path (R-ops-pglite-folder).
  fs.mkdirSync(folder, { recursive: true });
  let client: PGliteThread | undefined;
  try {
    const pgliteWasmModule = await createFolder(folder);
    // In a thread of its own, where its statements run beside the studio's work instead of stalling it (R-ops-pglite-thread).
    client = new PGliteThread(folder, { startParams: PGLITE_START_PARAMS, pgliteWasmModule, early: early?.worker });
    await client.waitReady;
    const db = drizzlePglite(client as unknown as PGlite, { schema });
    const opened = client;
    if (!(await upToDate((text) => opened.query(text), migrationsFolder))) await migratePglite(db, { migrationsFolder });
    let closed = false;
    return {
      db: db as unknown as Db,
      kind: "pglite",
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await opened.close();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    if (client) await client.close().catch(() => undefined);
    else await early?.worker.terminate();
    release();
    throw explain(err, `the embedded database in ${folder}`);
  }
}

/** drizzle wraps the driver's error; the cause is the sentence worth showing (R-ops-pglite-folder). */
function explain(err: unknown, where: string): Error {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const message = cause instanceof Error ? cause.message : String(cause);
  return new Error(`Could not open ${where}: ${message}`, { cause: err });
}
