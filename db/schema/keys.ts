// API keys (server/keys): what a program outside the studio presents as `Authorization: Bearer qk_…`. Only the
// value's SHA-256 is kept, found again by the value's first characters (R-key-hash); the value itself is shown once.
import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * What a key may do: start and continue runs, read them, decide their approvals and answer their questions; or,
 * alone and for nothing else, read the studio's metrics (R-metrics-key).
 */
export const keyScopes = ["run", "read", "decide", "metrics"] as const;
export type KeyScope = (typeof keyScopes)[number];

/** The agents a key may use: every agent, present and future, or these ids. */
export type KeyAgents = "all" | string[];

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Unique, case aside; what the list, the audit log and /runs show. */
    name: text("name").notNull(),
    /** The value's first characters ("qk_" and 8 more): how a request's key is found, and what the list shows. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole value, hex. */
    hash: text("hash").notNull(),
    agents: jsonb("agents").$type<KeyAgents>().notNull(),
    scopes: jsonb("scopes").$type<KeyScope[]>().notNull(),
    /** How long a request may stay open while its run waits for an approval, in seconds. */
    waitLimitS: integer("wait_limit_s").notNull().default(300),
    /** Requests a minute this key may make, per studio process (R-key-rate). */
    ratePerMinute: integer("rate_per_minute").notNull().default(60),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: text("revoked_by"),
  },
  (t) => [
    uniqueIndex("api_keys_name_idx").on(sql`lower(${t.name})`),
    uniqueIndex("api_keys_prefix_idx").on(t.prefix),
    check("api_keys_wait_check", sql`${t.waitLimitS} between 1 and 3600`),
    check("api_keys_rate_check", sql`${t.ratePerMinute} between 1 and 100000`),
  ],
);
