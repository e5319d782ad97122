// Two studio processes on one real PostgreSQL (DATABASE_URL), each with its own connections, runtime and scheduler,
// racing for the same ticks: every tick starts exactly one run between them (R-trigger-schedule-once). Skipped
// where no PostgreSQL is given; everything made here is removed, since the database outlives the test.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { and, eq, inArray, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { agents, audit, runs, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { parseEnv } from "@/server/env";
import { closeAll } from "@/server/host";
import { Runtime } from "@/server/runtime";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { Scheduler, type TickOutcome } from "@/server/triggers";
import { createSchedule } from "@/server/triggers/schedules";
import { startLoopbackModel, text, type LoopbackModel } from "@/tests/support/loopback-model";

// vitest.config.mts hands DATABASE_URL over under this name, so no test meant for PGlite writes to it.
const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;

describe.skipIf(!databaseUrl)("two studio processes sharing PostgreSQL, one schedule", () => {
  const person = { id: `user-sched-${randomUUID().slice(0, 8)}`, name: "Sam" };
  type Side = { database: Database; runtime: Runtime; scheduler: Scheduler };
  let shared: string;
  let model: LoopbackModel;
  let clock = new Date("2026-03-27T12:05:00Z");
  let a: Side;
  let b: Side;
  let agentId: string | undefined;
  let scheduleId: string | undefined;

  /** Another studio process migrating the same database at the same moment may win the race for a table: open again. */
  const opened = async (): Promise<Database> => openDatabase({ databaseUrl, dataDir: shared }).catch(() => openDatabase({ databaseUrl, dataDir: shared }));
  const side = async (): Promise<Side> => {
    const database = await opened();
    // A run queue of this file's own: other files' processes on this database take only theirs (R-queue-job).
    const runtime = new Runtime({ db: database.db, channel: database.channel, tree: path.join(shared, "tools"), dataDir: shared, modelRetries: 0, queue: "test-scheduler-postgres" });
    await runtime.connect();
    return { database, runtime, scheduler: new Scheduler({ db: database.db, runtime, now: () => clock }) };
  };

  beforeAll(async () => {
    process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);
    shared = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-sched-pg-"));
    fs.mkdirSync(path.join(shared, "tools"));
    model = await startLoopbackModel();
    model.fallback = text("Checked.");
    a = await side();
    b = await side();
    await a.database.db.insert(user).values({ id: person.id, email: `${person.id}@quiver.test`, name: person.name, role: "builder" });
    const declaration = { name: `scheduled ${randomUUID().slice(0, 8)}`, model: { provider: "openai-compatible", model: "loopback", base_url: model.url }, tools: [] };
    agentId = (await createAgent(a.database.db, person.id, declaration, { tree: path.join(shared, "tools"), workspace: workspaceDir(shared) })).id;
    const input = { cron: "*/15 * * * *", timeZone: "UTC", message: "Check the queue.", enabled: true, catchUp: "skip" as const };
    scheduleId = (await createSchedule(a.database.db, person.id, agentId, input, clock)).id;
  });

  afterAll(async () => {
    for (const s of [a, b]) await s?.runtime.shutdown();
    const db = a?.database.db;
    if (db && agentId) {
      await db.delete(runs).where(eq(runs.agentId, agentId));
      await db.delete(agents).where(eq(agents.id, agentId));
    }
    if (db) {
      const actors = [person.id, ...(scheduleId ? [`schedule:${scheduleId}`] : [])];
      await db.delete(audit).where(or(inArray(audit.actor, actors), and(eq(audit.action, "schedule.run"), eq(audit.actor, `schedule:${scheduleId}`))));
      await db.delete(user).where(eq(user.id, person.id));
    }
    for (const s of [a, b]) await s?.database.close();
    await model?.close();
    await closeAll();
    fs.rmSync(shared, { recursive: true, force: true });
  });

  it("starts exactly one run per tick when both look at the same moment", async () => {
    const ticks = ["2026-03-27T12:15:00Z", "2026-03-27T12:30:00Z", "2026-03-27T12:45:00Z", "2026-03-27T13:00:00Z", "2026-03-27T13:15:00Z"];
    const won: TickOutcome[][] = [];
    for (const tick of ticks) {
      clock = new Date(Date.parse(tick) + 500);
      // Each side looks twice at once, so four looks over two pools race for one row.
      const outcomes = (await Promise.all([a.scheduler.scan(), b.scheduler.scan(), a.scheduler.scan(), b.scheduler.scan()])).map((o) => o.filter((x) => x.scheduleId === scheduleId));
      won.push(outcomes.flat());
    }
    expect(won.map((outcomes) => outcomes.filter((o) => o.kind === "ran").length)).toEqual([1, 1, 1, 1, 1]);
    const started = await a.database.db.select({ id: runs.id }).from(runs).where(and(eq(runs.agentId, agentId!), eq(runs.via, "schedule")));
    expect(started).toHaveLength(ticks.length);
    for (const { id } of started) {
      await a.runtime.idle(id);
      await b.runtime.idle(id);
    }
  });
});
