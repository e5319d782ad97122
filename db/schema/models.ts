// Model connections an admin keeps (R-conn-shape): who serves the model, at which address, the key as a secret
// picked by name (never the value), and the models builders may pick. Agents name a connection and a model.
import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth";

export const modelConnections = pgTable("model_connections", {
  /** What agents reference: `{"connection": "<name>", "model": "…"}`; lower-case letters, digits and dashes. */
  name: text("name").primaryKey(),
  /** openai | anthropic | openai-compatible. */
  provider: text("provider").notNull(),
  /** The server's address; required for openai-compatible, optional for the others (their default). */
  baseUrl: text("base_url"),
  /** `${NAME}` of the secret holding the key, or null for a server that takes none. */
  apiKey: text("api_key"),
  /** The model an agent gets when it names none. */
  defaultModel: text("default_model"),
  /** The model ids builders may pick, or null for every model the provider lists. */
  models: jsonb("models").$type<string[] | null>(),
  /** What the admin's prices are in, shown as given (R-cost-price): three capital letters, USD unless changed. */
  currency: text("currency").notNull().default("USD"),
  /**
   * Prices per model id, in integer micro-units of the currency per million tokens (R-cost-exact), so 2.50 is
   * 2500000 and no float ever rounds one. A model left out has no price.
   */
  prices: jsonb("prices").$type<Record<string, { input: number; output: number }>>().notNull().default({}),
  createdBy: text("created_by").notNull(),
  updatedBy: text("updated_by").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** What each person chose for the studio's look, kept per user across browsers. */
export const userPreferences = pgTable("user_preferences", {
  userId: text("user_id").primaryKey().references(() => user.id, { onDelete: "cascade" }),
  /** system | light | dark. */
  theme: text("theme").notNull().default("system"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
