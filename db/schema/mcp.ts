// MCP servers an admin registered (server/mcp/registry.ts): how to start or reach each one. Every value a server
// is given (env, headers, args, url) is stored as written, ${NAME} references and all, and resolved only when the
// server is started (R-mcp-register); a value is never stored resolved.
import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const mcpServers = pgTable(
  "mcp_servers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Unique, case aside; what the palette and the row show. */
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    transport: text("transport", { enum: ["stdio", "http"] }).notNull(),
    /** stdio: the program to start, found on PATH when it has no slash. */
    command: text("command"),
    args: jsonb("args").$type<string[]>().notNull().default([]),
    /** stdio: the working folder; null for the server's own work folder. */
    cwd: text("cwd"),
    env: jsonb("env").$type<Record<string, string>>().notNull().default({}),
    /** http: the endpoint, Streamable HTTP first and the older HTTP+SSE transport if it answers only that. */
    url: text("url"),
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    /** Seconds without use after which the server is stopped (its session closed); 0 keeps it running. */
    idleStopS: integer("idle_stop_s").notNull().default(600),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("mcp_servers_name_idx").on(sql`lower(${t.name})`),
    check("mcp_servers_name_check", sql`char_length(${t.name}) between 1 and 80 and ${t.name} = btrim(${t.name})`),
    check(
      "mcp_servers_transport_check",
      sql`(${t.transport} = 'stdio' and ${t.command} is not null and ${t.url} is null) or (${t.transport} = 'http' and ${t.url} is not null and ${t.command} is null)`,
    ),
    check("mcp_servers_idle_check", sql`${t.idleStopS} between 0 and 86400`),
  ],
);

/**
 * What an MCP tool said when a builder pinned it (R-mcp-pin-withheld), by its pin: an agent's entry keeps only the
 * pin, and this keeps the text behind it, so the agent page can show the old and the new side by side when a
 * server changes a tool. Rows are never changed: the same pin is always the same text.
 */
export const mcpToolPins = pgTable("mcp_tool_pins", {
  pin: text("pin").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  /** The input schema as the server sent it. */
  inputSchema: jsonb("input_schema").notNull(),
  pinnedAt: timestamp("pinned_at", { withTimezone: true }).notNull().defaultNow(),
});
