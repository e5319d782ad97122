// What starts an agent's runs without a person (server/triggers): a webhook, whose secret token is kept only as its
// SHA-256 (R-trigger-webhook-token), and schedules, each tick claimed in the database so that of several studio
// processes exactly one starts its run (R-trigger-schedule-once).
import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { agents } from "./agents";

export const catchUps = ["run_once", "skip"] as const;
/** What a schedule does with ticks that passed while no studio process was up. */
export type CatchUp = (typeof catchUps)[number];

/** One per agent at most: a program POSTs to /api/hooks/{agent}/{token}. */
export const webhooks = pgTable(
  "webhooks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    /** SHA-256 of the token, hex. */
    hash: text("hash").notNull(),
    /** The token's first characters, so the page can say which address is live without showing it. */
    hint: text("hint").notNull(),
    /** `{{body.field}}` text the message is made from; null sends the body itself. */
    template: text("template"),
    /** Whom its runs start as: who made it or last rotated it (R-trigger-run-as). */
    runAs: text("run_as").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    rotatedAt: timestamp("rotated_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("webhooks_agent_idx").on(t.agentId)],
);

export const schedules = pgTable(
  "schedules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    /** Five fields (minute hour day month weekday) or a nickname such as @daily. */
    cron: text("cron").notNull(),
    /** An IANA time zone the cron expression is read in. */
    timeZone: text("time_zone").notNull(),
    message: text("message").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    catchUp: text("catch_up").$type<CatchUp>().notNull().default("skip"),
    /** The tick to run next; null while off. Claiming a tick moves it on in one UPDATE (R-trigger-schedule-once). */
    nextAt: timestamp("next_at", { withTimezone: true }),
    /** Whom its runs start as: who made it or last changed it (R-trigger-run-as). */
    runAs: text("run_as").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    lastTickAt: timestamp("last_tick_at", { withTimezone: true }),
    lastRunId: uuid("last_run_id"),
  },
  (t) => [
    index("schedules_agent_idx").on(t.agentId),
    index("schedules_due_idx").on(t.nextAt),
    check("schedules_catch_up_check", sql`${t.catchUp} in ('run_once', 'skip')`),
  ],
);
