// Two studio processes on one real PostgreSQL (DATABASE_URL), each with its own connections, runtime and scheduler
// on pg-boss: a schedule's tick is sent once by pg-boss's cron pass and taken by one of them, so it starts exactly
// one run between them (R-schedule-once-across). Skipped where no PostgreSQL is given; everything made here is
// removed, since the database outlives the test.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { agents, audit, runs, schedules, user } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { parseEnv } from "@/server/env";
import { closeAll } from "@/server/host";
import { Runtime } from "@/server/runtime";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { Scheduler, type TickOutcome } from "@/server/triggers";
import { createSchedule } from "@/server/triggers/schedules";
import { startLoopbackModel, text, type LoopbackModel } from "@/tests/support/loopback-model";
import { savedForASoonTick } from "@/tests/support/soon-tick";

// vitest.config.mts hands DATABASE_URL over under this name, so no test meant for PGlite writes to it.
const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
// This file's own queues: other files' processes on this database take neither its runs nor its ticks (R-queue-job).
const RUN_QUEUE = "test-schedule-boss-postgres";
const TICK_QUEUE = "test-schedule-boss-postgres-ticks";

describe.skipIf(!databaseUrl)("two studio processes sharing PostgreSQL, one schedule on pg-boss", () => {
  const person = { id: `user-boss-${randomUUID().slice(0, 8)}`, name: "Sam" };
  type Side = { database: Database; runtime: Runtime; scheduler: Scheduler; won: TickOutcome[] };
  let shared: string;
  let model: LoopbackModel;
  let a: Side;
  let b: Side;
  let agentId: string | undefined;
  let scheduleId: string | undefined;

  const opened = async (): Promise<Database> => openDatabase({ databaseUrl, dataDir: shared }).catch(() => openDatabase({ databaseUrl, dataDir: shared }));
  const side = async (): Promise<Side> => {
    const database = await opened();
    const runtime = new Runtime({ db: database.db, channel: database.channel, tree: path.join(shared, "tools"), dataDir: shared, modelRetries: 0, queue: RUN_QUEUE });
    await runtime.connect();
    const scheduler = new Scheduler({ db: database.db, runtime, queue: TICK_QUEUE });
    const won: TickOutcome[] = [];
    scheduler.onOutcome = (outcome) => won.push(outcome);
    return { database, runtime, scheduler, won };
  };

  beforeAll(async () => {
    process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);
    shared = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-boss-pg-"));
    fs.mkdirSync(path.join(shared, "tools"));
    model = await startLoopbackModel();
    model.fallback = text("Checked.");
    a = await side();
    b = await side();
    await a.database.db.insert(user).values({ id: person.id, email: `${person.id}@quiver.test`, name: person.name, role: "builder" });
    const declaration = { name: `ticking ${randomUUID().slice(0, 8)}`, model: { provider: "openai-compatible", model: "loopback", base_url: model.url }, tools: [] };
    agentId = (await createAgent(a.database.db, person.id, declaration, { tree: path.join(shared, "tools"), workspace: workspaceDir(shared) })).id;
  });

  afterAll(async () => {
    for (const s of [a, b]) await s?.scheduler.stop();
    for (const s of [a, b]) await s?.runtime.shutdown();
    const db = a?.database.db;
    if (db) await db.execute(sql`delete from pgboss.schedule where name = ${TICK_QUEUE}`).catch(() => undefined);
    if (db && scheduleId) await db.delete(schedules).where(eq(schedules.id, scheduleId));
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

  it("R-schedule-once-across: a tick starts exactly one run, in whichever process took pg-boss's job", async () => {
    await Promise.all([a.scheduler.start(), b.scheduler.start()]);
    // Saved in one process while both run, as a moment before this minute began: due now, so pg-boss's next cron
    // pass, claimed by either process, sends its tick.
    const input = { cron: "* * * * *", timeZone: "UTC", message: "Check the queue.", enabled: true, catchUp: "skip" as const };
    scheduleId = (await createSchedule(a.database.db, person.id, agentId!, input, savedForASoonTick())).id;
    a.scheduler.poke();
    const ours = (s: Side) => s.won.filter((o) => o.scheduleId === scheduleId);
    const deadline = Date.now() + 80_000;
    while (ours(a).length + ours(b).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    // Both processes ran their cron passes and asked for ticks meanwhile: give a second sending of this tick time to show.
    await new Promise((r) => setTimeout(r, 8_000));
    const won = [...ours(a), ...ours(b)];
    expect(won).toEqual([expect.objectContaining({ kind: "ran", missed: 0 })]);
    const started = await a.database.db.select({ id: runs.id }).from(runs).where(and(eq(runs.agentId, agentId!), eq(runs.via, "schedule")));
    expect(started.map((r) => r.id)).toEqual([(won[0] as { runId: string }).runId]);
    for (const { id } of started) {
      await a.runtime.idle(id);
      await b.runtime.idle(id);
    }
  }, 120_000);
});
