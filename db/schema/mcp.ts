// MCP servers an admin registered (server/mcp/registry.ts): how to start or reach each one. Every value a server
// is given (env, headers, args, url) is stored as written, ${NAME} references and all, and resolved only when the
// server is started (R-mcp-register); a value is never stored resolved.
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** An OAuth sign-in's settings as written: a given client id (else the studio registers itself), its secret as a ${NAME}. */
export type McpOAuthSettings = { type: "oauth"; clientId: string | null; clientSecret: string | null; scopes: string[] };

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
    /** http: how the studio signs in, when the server demands OAuth (R-mcp-oauth-connect); null sends only the headers. */
    auth: jsonb("auth").$type<McpOAuthSettings | null>(),
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
    check("mcp_servers_auth_check", sql`${t.auth} is null or ${t.transport} = 'http'`),
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

/**
 * What an admin's sign-in to an OAuth-protected server left (R-mcp-oauth-tokens): its tokens and the client the
 * studio registered, each encrypted like a secret's value (server/secrets/grants.ts), never in clear. `bound` is a
 * hash of the URL and client id it was made for: a row changed to another server or client reads as signed out.
 */
export const mcpOauthGrants = pgTable("mcp_oauth_grants", {
  serverId: uuid("server_id")
    .primaryKey()
    .references(() => mcpServers.id, { onDelete: "cascade" }),
  bound: text("bound").notNull(),
  /** The access and refresh tokens; null until someone signs in, and again once the grant cannot be renewed. */
  tokensCiphertext: text("tokens_ciphertext"),
  /** The client dynamic registration gave (its id, perhaps a secret); null with a given client id. */
  clientCiphertext: text("client_ciphertext"),
  /** The servers' metadata found on the way (public documents), so a refresh need not look them up again. */
  discovery: jsonb("discovery"),
  signedInBy: text("signed_in_by"),
  signedInAt: timestamp("signed_in_at", { withTimezone: true }),
  refreshedAt: timestamp("refreshed_at", { withTimezone: true }),
  /** What the row says about the sign-in: how the last Connect went, or why it must be done again. */
  outcome: text("outcome"),
  outcomeOk: boolean("outcome_ok"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A Connect under way (R-mcp-oauth-state): the browser is at the server's consent page and comes back with `state`.
 * Kept by the sha256 of the state (the state itself is only in the authorization URL), for the admin who pressed
 * Connect, until it expires or is used once; the PKCE verifier is encrypted like a secret.
 */
export const mcpOauthPending = pgTable(
  "mcp_oauth_pending",
  {
    stateHash: text("state_hash").primaryKey(),
    serverId: uuid("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    verifierCiphertext: text("verifier_ciphertext").notNull(),
    discovery: jsonb("discovery"),
    redirectUrl: text("redirect_url").notNull(),
    bound: text("bound").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mcp_oauth_pending_expires_idx").on(t.expiresAt)],
);
