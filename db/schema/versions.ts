// Published versions of the tool tree, whole, so a process on any machine can materialise one without the tree
// folder (R-version-stored). Each publish adds one row; a row never changes.
import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const treeVersions = pgTable("tree_versions", {
  /** 1 for the first publish, then one more each time: what a run page names ("published version 3"). */
  number: integer("number").primaryKey(),
  /** The commit in the publishing studio's repository. */
  commit: text("commit").notNull().unique(),
  message: text("message").notNull(),
  authorName: text("author_name").notNull(),
  authorEmail: text("author_email").notNull(),
  /** Every file of the version by its name in the commit (`notes.py`, `requirements.txt`, `hooks/tools.py`) and its text. */
  files: jsonb("files").$type<Record<string, string>>().notNull(),
  publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
});
