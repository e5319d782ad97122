// What the Node server does once when it starts: open and migrate the database, note the start,
// and close cleanly on SIGTERM/SIGINT (without a clean close PGlite's serial ids jump: R-ops-clean-close).
import type { Db } from "@/db/client";
import { DataFolderLockedError } from "@/db/lock";
import { recordAudit } from "./audit/record";
import { createOwner, userCount } from "./auth/users";
import { closeDatabase, startDatabase } from "./db";
import { ConfigError, env } from "./env";
import { reportUnexpected } from "./error-report";
import { closeAll } from "./host";
import { closeMcpServers } from "./mcp/pool";
import { stopStudioRuntime, studioRuntime } from "./runtime";
import { prepareKey, StudioKeyError } from "./secrets/key";
import { markStartupDone, markStartupFailed } from "./startup-state";
import { startInstall } from "./tree/deps-status";
import { startStudioScheduler, stopStudioScheduler } from "./triggers";

export async function startStudio(): Promise<void> {
  installShutdown();
  try {
    const { db, kind } = await startDatabase();
    await prepareKey(db, env());
    await recordAudit(db, { actor: "studio", action: "studio.started", detail: { db: kind, pid: process.pid, role: env().role } });
    await createOwnerFromEnv(db);
    markStartupDone();
    // The tree's dependencies, as a checkout's are before its host serves: stamped, so an unchanged tree runs no pip
    // (R-deps-status); in the background, since a failed or slow install must not hold the studio up.
    startInstall(env().toolsDir);
    // This process's part of the run queue, as QUIVER_ROLE says: runs a stopped process held are taken over (R-queue-role).
    await studioRuntime().catch((err: Error) => console.error(`[quiver] the runtime did not start: ${err.message}`));
    // Ticks missed while no studio was up are run once or skipped now, as each schedule says (R-trigger-schedule-catch-up).
    await startStudioScheduler().catch((err: Error) => console.error(`[quiver] the scheduler did not start: ${err.message}`));
    console.log(`[quiver] database ready (${kind}); tools from ${env().toolsDir}; role ${env().role}`);
  } catch (err) {
    // Keep serving so /api/health can say what is wrong instead of a bare 500 (R-ops-instrumentation).
    const error = err instanceof Error ? err : new Error(String(err));
    const own = ownSentence(error);
    if (own) console.error(`[quiver] start-up failed: ${own}`);
    markStartupFailed(error, own ?? reportUnexpected(error, "start-up").sentence);
  }
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
  if (!admin || (await userCount(db)) > 0) return;
  await createOwner(db, { email: admin.email, name: "Admin", password: admin.password });
  console.log(`[quiver] created the owner account ${admin.email}`);
}

function installShutdown(): void {
  const flag = globalThis as typeof globalThis & { __quiverShutdown?: boolean };
  if (flag.__quiverShutdown) return;
  flag.__quiverShutdown = true;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`[quiver] ${signal}: stopping the scheduler, the runs, the tool hosts and MCP servers and closing the database`);
    Promise.allSettled([stopStudioScheduler(), stopStudioRuntime(), closeAll(), closeMcpServers()])
      .then(() => closeDatabase())
      .catch((err: Error) => console.error(`[quiver] closing the database failed: ${err.message}`))
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
