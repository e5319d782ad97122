// The tool tree's editor data: drafts of unsaved buffers and saved Try it calls.
import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Unsaved editor buffers, one per person and file, so edits survive a reload or a server restart. */
export const drafts = pgTable(
  "drafts",
  {
    userId: text("user_id").notNull(),
    /** The file's path in the tree, e.g. "notes.py". */
    path: text("path").notNull(),
    source: text("source").notNull(),
    /** The hash of the saved version the edits started from: a save based on it is refused if the file moved on. */
    baseHash: text("base_hash").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.path] })],
);

/** Calls saved from the editor's Try it panel, to run again later. Settings hold ${NAME} references, never secret values. */
export const toolExamples = pgTable(
  "tool_examples",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The tree file the operation belongs to, e.g. "notes.py". */
    path: text("path").notNull(),
    /** The operation's name, e.g. "notes__write". */
    tool: text("tool").notNull(),
    title: text("title").notNull(),
    args: jsonb("args").$type<Record<string, unknown>>().notNull(),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("tool_examples_path_idx").on(t.path)],
);
