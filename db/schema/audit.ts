// The audit log: who did what, when. Rows are written through server/audit, which masks secret values.
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Every action worth answering "who did what, when" for: starts, logins, secret use, tool actions. */
export const audit = pgTable(
  "audit",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** Who acted: a user id, or "studio" for what the studio does by itself. */
    actor: text("actor").notNull(),
    /** What happened, as a dotted verb: "studio.started", "secret.rotated", "tool.executed". */
    action: text("action").notNull(),
    /** What it happened to: a secret name, a tool name, a run id. */
    target: text("target"),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("audit_at_idx").on(t.at), index("audit_action_idx").on(t.action)],
);
