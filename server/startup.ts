// What the Node server does once when it starts: open and migrate the database, check the key, note the start, and
// close cleanly on SIGTERM/SIGINT (without a clean close PGlite's serial ids jump: R-ops-clean-close). What a first
// page does not need (the run queue, the scheduler, the tree's dependency install) starts after it, and is imported
// only then, so the start loads and compiles none of it (R-boot-after-page).
import type { Database, Db } from "@/db/client";
import { DataFolderLockedError } from "@/db/lock.mjs";
import { recordAudit } from "./audit/record";
import { closeDatabase, startDatabase } from "./db";
import { ConfigError, env } from "./env";
import { reportUnexpected } from "./error-report";
import { prepareKey, StudioKeyError } from "./secrets/key";
import { deferScheduler, firstPageServed, markBackgroundFailed, markStartupDone, markStartupFailed } from "./startup-state";

/** How long the parts after the first page wait when nothing says a page was served (R-boot-after-page). */
const BACKGROUND_FALLBACK_MS = 3_000;

export type StartOptions = {
  /**
   * Start the run queue, the scheduler and the dependency install only once the first page has been served
   * (instrumentation.ts under Next); a worker, which serves no pages, and a direct caller start them at once.
   */
  afterFirstPage?: boolean;
};

export async function startStudio(options: StartOptions = {}): Promise<void> {
  installShutdown();
  const started = performance.now();
  const phases: string[] = [];
  const phase = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    try {
      return await step();
    } finally {
      phases.push(`${name} ${(performance.now() - at).toFixed(0)} ms`);
    }
  };
  let database: Database;
  try {
    database = await phase("database", () => startDatabase());
    const db = database.db;
    await phase("key", () => prepareKey(db, env()));
    await phase("audit", () => recordAudit(db, { actor: "studio", action: "studio.started", detail: { db: database.kind, pid: process.pid, role: env().role } }));
    await createOwnerFromEnv(db);
    markStartupDone();
  } catch (err) {
    // Keep serving so /api/health can say what is wrong instead of a bare 500 (R-ops-instrumentation).
    const error = err instanceof Error ? err : new Error(String(err));
    const own = ownSentence(error);
    if (own) console.error(`[quiver] start-up failed: ${own}`);
    markStartupFailed(error, own ?? reportUnexpected(error, "start-up").sentence);
    return;
  }
  // The process's own start (Node, Next) is before `started`; performance.now() counts from the process's start (R-boot-timed).
  console.log(
    `[quiver] database ready (${database.kind}) at ${performance.now().toFixed(0)} ms after the process started (${phases.join(", ")}); tools from ${env().toolsDir}; role ${env().role}`,
  );
  const later = options.afterFirstPage && env().role !== "worker";
  if (!later) return startBackground(started, database);
  void firstPageServed(BACKGROUND_FALLBACK_MS).then(() => startBackground(started, database));
}

/**
 * The parts no first page needs, each failure kept for /api/health (R-boot-after-page): the tree's dependencies
 * (stamped, so an unchanged tree runs no pip: R-deps-status, and in the background, since a failed or slow install
 * must not hold the studio up), this process's part of the run queue as QUIVER_ROLE says (runs a stopped process
 * held are taken over: R-queue-role), then the scheduler (ticks missed while no studio was up are run once or
 * skipped now, as each schedule says: R-trigger-schedule-catch-up). An embedded studio with no run to take back and
 * no schedule on leaves both to their first use (R-boot-queue-on-use).
 */
async function startBackground(started: number, database: Database): Promise<void> {
  // A SIGTERM before the first page: nothing more is started, since the shutdown would not stop it.
  if (shutdownHolder.__quiverShutdown === "stopping") return;
  const at = performance.now();
  const part = async (what: string, step: () => Promise<unknown>): Promise<boolean> => {
    try {
      await step();
      return true;
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      markBackgroundFailed(error, `The studio started, but ${what} did not: ${reportUnexpected(error, `starting ${what}`).sentence}`);
      return false;
    }
  };
  await part("the dependency install", async () => (await import("./tree/deps-status")).startInstall(env().toolsDir));
  if (await leftForFirstUse(database)) {
    console.log(`[quiver] run queue and scheduler left for their first use: no run to take back and no schedule on (${(performance.now() - at).toFixed(0)} ms)`);
    return;
  }
  const queue = await part("the run queue", async () => (await import("./runtime")).studioRuntime());
  if (queue) await part("the scheduler", async () => (await import("./triggers")).startStudioScheduler());
  console.log(`[quiver] run queue and scheduler started in ${(performance.now() - at).toFixed(0)} ms, ${(at - started).toFixed(0)} ms after the start-up began`);
}

/**
 * Only PGlite's one process can have queued this studio's runs, so with none unfinished and no schedule on, the run
 * queue waits for a run to start, and the scheduler for a schedule to change (R-boot-queue-on-use). On PostgreSQL
 * another process may queue a run at any time. A check that fails starts both, as before.
 */
async function leftForFirstUse(database: Database): Promise<boolean> {
  if (database.kind !== "pglite") return false;
  try {
    const { workWaiting } = await import("./startup-idle");
    if (await workWaiting(database.db, env().runQueue)) return false;
  } catch {
    return false;
  }
  deferScheduler();
  return true;
}

/**
 * The message of a start-up error the studio wrote for a person (a second studio on a live data folder, a wrong key,
 * a variable to fix), or null: anything else (a driver's words) is answered with an error id (R-error-id).
 */
function ownSentence(error: Error): string | null {
  const own = error instanceof DataFolderLockedError || error instanceof StudioKeyError || error instanceof ConfigError;
  return own ? error.message : null;
}

/** QUIVER_ADMIN_EMAIL and QUIVER_ADMIN_PASSWORD make the owner without a browser, once. */
async function createOwnerFromEnv(db: Db): Promise<void> {
  const admin = env().admin;
  if (!admin) return;
  // better-auth is loaded only when there is an owner to make (R-boot-after-page): a studio that has one, started
  // with these set as ever, counts its accounts and goes on.
  const { userCount } = await import("./auth/user-count");
  if ((await userCount(db)) > 0) return;
  const { createOwner } = await import("./auth/users");
  await createOwner(db, { email: admin.email, name: "Admin", password: admin.password });
  console.log(`[quiver] created the owner account ${admin.email}`);
}

const shutdownHolder = globalThis as typeof globalThis & { __quiverShutdown?: "installed" | "stopping" };

function installShutdown(): void {
  if (shutdownHolder.__quiverShutdown) return;
  shutdownHolder.__quiverShutdown = "installed";
  const stop = (signal: NodeJS.Signals) => {
    if (shutdownHolder.__quiverShutdown === "stopping") return;
    shutdownHolder.__quiverShutdown = "stopping";
    console.log(`[quiver] ${signal}: stopping the scheduler, the runs, the tool hosts and MCP servers and closing the database`);
    // Imported here, not at load: the start must not compile them (R-boot-after-page); each holds its state on
    // globalThis, so this copy stops what a route's copy started.
    const parts = [
      import("./triggers").then((m) => m.stopStudioScheduler()),
      import("./runtime").then((m) => m.stopStudioRuntime()),
      import("./host").then((m) => m.closeAll()),
      import("./mcp/pool").then((m) => m.closeMcpServers()),
    ];
    Promise.allSettled(parts)
      .then(() => closeDatabase())
      .catch((err: Error) => console.error(`[quiver] closing the database failed: ${err.message}`))
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
