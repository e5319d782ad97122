// Secrets, encrypted at rest (AES-256-GCM, server/secrets): the value column holds only ciphertext.
import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const secrets = pgTable("secrets", {
  /** What builders pick and settings reference as ${NAME}: [A-Z][A-Z0-9_]*. */
  name: text("name").primaryKey(),
  description: text("description").notNull().default(""),
  /** "v1:<iv>:<tag>:<ciphertext>", base64 parts; never the value in clear. */
  ciphertext: text("ciphertext").notNull(),
  createdBy: text("created_by").notNull(),
  updatedBy: text("updated_by").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
});

/** Facts about the studio itself, such as which key the secrets were encrypted under. */
export const studioMeta = pgTable("studio_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
