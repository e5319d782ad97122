// An embedded studio starts its run queue and its scheduler when there is work for them (R-boot-queue-on-use): with
// no run to take back and no schedule on, neither starts with the studio, a first run starts the queue and a first
// change of a schedule the scheduler; with a schedule on, both start at once, as on PostgreSQL always.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { agents, schedules } from "@/db/schema";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-startup-queue-"));
const globals = globalThis as Record<string, unknown>;
const saved = { ...process.env };

afterEach(async () => {
  vi.restoreAllMocks();
  await (await import("@/server/triggers")).stopStudioScheduler();
  await (await import("@/server/runtime")).stopStudioRuntime();
  delete globals.__quiverRuntime;
  await (await import("@/server/db")).closeDatabase();
  process.env = { ...saved };
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Starts a studio afresh on the data folder `name` (its start-up state forgotten); what it logged. */
async function startOn(name: string, before?: (db: import("@/db/client").Db) => Promise<void>) {
  vi.resetModules();
  for (const key of ["__quiverDb", "__quiverStartup", "__quiverRuntime", "__quiverScheduler"]) delete globals[key];
  const tree = path.join(dir, name, "tools");
  fs.mkdirSync(tree, { recursive: true });
  Object.assign(process.env, { QUIVER_DATA_DIR: path.join(dir, name, "data"), QUIVER_TOOLS_DIR: tree, DATABASE_URL: "" });
  if (before) {
    const { getDb, closeDatabase } = await import("@/server/db");
    await before(await getDb());
    await closeDatabase();
  }
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  const { startStudio } = await import("@/server/startup");
  await startStudio();
  return lines.join("\n");
}

async function until(test: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it("R-boot-queue-on-use: with nothing to drive, neither starts; a first run starts the queue, a schedule's change the scheduler", async () => {
  const log = await startOn("idle");
  expect(log).toMatch(/run queue and scheduler left for their first use: no run to take back and no schedule on/);
  expect(globals.__quiverRuntime).toBeUndefined();
  expect(globals.__quiverScheduler).toBeUndefined();
  // pg-boss makes its tables as it first opens: none yet.
  const db = await (await import("@/server/db")).getDb();
  const jobTable = async () => ((await db.execute(sql`select to_regclass('pgboss.job')::text as t`)) as unknown as { rows: { t: string | null }[] }).rows[0]!.t;
  expect(await jobTable()).toBeNull();

  // What a route does on its first need of the queue: the runtime opens it then.
  await (await import("@/server/runtime")).studioRuntime();
  expect(await jobTable()).not.toBeNull();
  expect(globals.__quiverScheduler).toBeUndefined();

  const { pokeScheduler } = await import("@/server/triggers");
  pokeScheduler();
  await until(() => globals.__quiverScheduler !== undefined, "the scheduler's start");
  // Once only: a later change pokes the scheduler that runs.
  const started = globals.__quiverScheduler;
  pokeScheduler();
  expect(globals.__quiverScheduler).toBe(started);
}, 90_000);

it("R-boot-queue-on-use: with a schedule on, the queue and the scheduler start with the studio", async () => {
  const log = await startOn("scheduled", async (db) => {
    const [agent] = await db
      .insert(agents)
      .values({ name: "morning", declaration: { name: "morning" }, createdBy: "someone", updatedBy: "someone" })
      .returning({ id: agents.id });
    await db.insert(schedules).values({
      agentId: agent!.id,
      cron: "0 9 * * *",
      timeZone: "UTC",
      message: "Good morning.",
      runAs: "someone",
      nextAt: new Date(Date.now() + 24 * 3600_000),
    });
  });
  expect(log).toMatch(/run queue and scheduler started/);
  expect(globals.__quiverRuntime).toBeDefined();
  expect(globals.__quiverScheduler).toBeDefined();
}, 90_000);
