// The studio's one database connection, opened and migrated once at start-up (instrumentation.ts)
// and shared by every route: Next bundles instrumentation and routes apart, so it lives on globalThis.
// The drivers, migrations and the environment's schema are imported only by the call that opens it: a page that asks
// for the open handle does not carry them in its own bundle (R-boot-page-light).
import type { Database, Db } from "@/db/client";

type DbState =
  | { status: "starting"; ready: Promise<Database> }
  | { status: "ready"; ready: Promise<Database>; database: Database }
  | { status: "failed"; ready: Promise<Database>; error: Error };

const holder = globalThis as typeof globalThis & { __quiverDb?: DbState };

/** Opens and migrates the database on first call; later calls share the same promise. */
export function startDatabase(): Promise<Database> {
  if (holder.__quiverDb) return holder.__quiverDb.ready;
  const ready = (async () => {
    const [{ openDatabase }, { env }] = await Promise.all([import("@/db/client"), import("./env")]);
    const { databaseUrl, dataDir } = env();
    return openDatabase({ databaseUrl, dataDir });
  })();
  holder.__quiverDb = { status: "starting", ready };
  ready.then(
    (database) => (holder.__quiverDb = { status: "ready", ready, database }),
    (error: Error) => (holder.__quiverDb = { status: "failed", ready, error }),
  );
  return ready;
}

/** Where the database stands, without waiting: what the health route reports. */
export function databaseState(): DbState | undefined {
  return holder.__quiverDb;
}

export async function getDb(): Promise<Db> {
  return (await startDatabase()).db;
}

/** Closes the connection if one was opened; the next startDatabase() opens a fresh one. */
export async function closeDatabase(): Promise<void> {
  const state = holder.__quiverDb;
  holder.__quiverDb = undefined;
  if (state?.status === "ready") await state.database.close();
  else if (state?.status === "starting") await state.ready.then((d) => d.close(), () => undefined);
}
