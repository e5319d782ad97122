// The person's word on a run (a decision, an answer, a stop), written before any process acts on it: the process
// that holds the run's job applies it, and one that takes the run over later finds it here (R-queue-word).
import { bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { runs } from "./runs";

export const runWordKinds = ["decide", "answer", "recover", "cancel"] as const;
export type RunWordKind = (typeof runWordKinds)[number];

export const runWords = pgTable(
  "run_words",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** The call decided or answered; null for a stop. One word per call: a second one is refused. */
    callId: text("call_id"),
    kind: text("kind").$type<RunWordKind>().notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("run_words_call_idx").on(t.runId, t.callId), index("run_words_run_idx").on(t.runId, t.id)],
);
