// Runs of agents, step by step, and what built-in sources keep between calls. Every step is one row of
// run_events with an increasing id, so a stream can resume from the last id a browser saw.
import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const runStatuses = ["running", "waiting", "done", "failed", "cancelled"] as const;
export type RunStatus = (typeof runStatuses)[number];

/**
 * How a run started: the studio's playground, a program with an API key, an MCP client, a webhook, a schedule, or
 * another run that asked this agent as its specialist.
 */
export const runVias = ["playground", "api", "mcp", "webhook", "schedule", "specialist"] as const;
export type RunVia = (typeof runVias)[number];

export const runs = pgTable(
  "runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    agentId: uuid("agent_id").notNull(),
    /** The agent's version the run started from; the declaration itself is kept too, as it was. */
    agentVersion: integer("agent_version").notNull(),
    declaration: jsonb("declaration").$type<Record<string, unknown>>().notNull(),
    startedBy: text("started_by").notNull(),
    via: text("via").$type<RunVia>().notNull().default("playground"),
    /** The API key a run came through, and its name as it was then, so a revoked or deleted key still reads. */
    viaKeyId: uuid("via_key_id"),
    viaKeyName: text("via_key_name"),
    /** A specialist's run: the run that asked it, and the call of that run that did, so each links to the other. */
    parentRunId: uuid("parent_run_id"),
    parentCallId: text("parent_call_id"),
    /** The published tree version the run uses, kept across a takeover; null for the working tree (R-version-pinned). */
    treeVersion: integer("tree_version"),
    /** The run queue whose processes drive it: a sweep queues only its own queue's runs (R-queue-sweep). */
    queue: text("queue").notNull().default("quiver-runs"),
    status: text("status").$type<RunStatus>().notNull().default("running"),
    /** Why a run failed, in one sentence (masked). */
    error: text("error"),
    tokensIn: integer("tokens_in").notNull().default(0),
    tokensOut: integer("tokens_out").notNull().default(0),
    /**
     * The price the run is counted at, taken from its connection when the run was made and never changed after
     * (R-cost-fixed): micro-units of the currency per million tokens. Null: an inline model or a model with no price.
     */
    priceCurrency: text("price_currency"),
    priceInput: bigint("price_input", { mode: "number" }),
    priceOutput: bigint("price_output", { mode: "number" }),
    /**
     * What the run cost, in the currency, counted by the database each time its tokens are stored (R-cost-fixed):
     * exact, as the price is in micro-units and a million tokens is 10^6. Null when the run has no price.
     */
    cost: numeric("cost", { precision: 30, scale: 12 }).generatedAlwaysAs(
      sql`CASE WHEN price_input IS NULL OR price_output IS NULL THEN NULL ELSE ((tokens_in::numeric * price_input + tokens_out::numeric * price_output) / 1000000000000)::numeric(30,12) END`,
    ),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    index("runs_agent_idx").on(t.agentId),
    index("runs_started_idx").on(t.startedAt),
    index("runs_via_idx").on(t.via, t.startedAt),
    index("runs_parent_idx").on(t.parentRunId),
    // The metrics' count of runs by status reads this index alone, not every run's row (R-metrics-status-index).
    index("runs_status_idx").on(t.status),
  ],
);

export const runEvents = pgTable(
  "run_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** message, tool_call, tool_result, approval_requested, approval_decided, progress, todos, status, error… */
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("run_events_run_idx").on(t.runId, t.id)],
);

/** system:memory — a small key-value store per agent. */
export const agentMemory = pgTable(
  "agent_memory",
  {
    agentId: uuid("agent_id").notNull(),
    key: text("key").notNull(),
    value: jsonb("value").$type<unknown>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.key] })],
);
