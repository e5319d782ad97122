// Agents and their versions. The declaration (server/agents/declaration.ts) is stored whole as JSON: its
// canonical shape is the export format, so what is saved is what is exported. Settings hold ${NAME}, never values.
import { sql } from "drizzle-orm";
import { integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const agents = pgTable(
  "agents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The declaration's name, kept here to be listed and kept unique (case aside). */
    name: text("name").notNull(),
    /** The latest version's declaration. */
    declaration: jsonb("declaration").$type<Record<string, unknown>>().notNull(),
    /** Per entry, what its operations looked like to the model at save time: what drift is measured against. */
    fingerprints: jsonb("fingerprints").$type<unknown[]>().notNull().default([]),
    /** The latest version's number: a save names the version it was based on, and is refused when it moved on. */
    version: integer("version").notNull().default(1),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("agents_name_idx").on(sql`lower(${t.name})`)],
);

/** Every save of an agent, whole: who, when, and a one-line summary of what changed. */
export const agentVersions = pgTable(
  "agent_versions",
  {
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    declaration: jsonb("declaration").$type<Record<string, unknown>>().notNull(),
    fingerprints: jsonb("fingerprints").$type<unknown[]>().notNull().default([]),
    summary: text("summary").notNull(),
    savedBy: text("saved_by").notNull(),
    savedAt: timestamp("saved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.version] })],
);
