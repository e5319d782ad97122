// The journal of a run's steps (R-journal-key): one row per model turn and per call the model made, keyed by the
// run, the step (the model turn's number) and the call's index in it (0 is the model turn itself). A call's row is
// written before it is dispatched and given its result when it returns, so a process taking the run over knows which
// calls may have run and what each one answered (R-journal-replay).
import { integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { runs } from "./runs";

export const runSteps = pgTable(
  "run_steps",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    step: integer("step").notNull(),
    /** 0: the model turn; 1, 2, …: its calls in the order the model made them. */
    callIndex: integer("call_index").notNull(),
    /** The call's id in the run's events; null for a model turn. */
    callId: text("call_id"),
    operation: text("operation"),
    /** How many times it was dispatched: more than one after a retry or a replay. */
    attempts: integer("attempts").notNull().default(1),
    /** What it answered (the call's result as the model reads it, masked); null while it has not answered. */
    result: jsonb("result").$type<Record<string, unknown>>(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ name: "run_steps_key", columns: [t.runId, t.step, t.callIndex] })],
);
