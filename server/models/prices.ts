// The prices an admin gives a connection's models (R-cost-price), and the price a new run takes from them
// (R-cost-fixed). Edit when a price gains a part (a cached-input price, say).
import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { modelConnections } from "@/db/schema";
import { isConnectionModel, type AgentDeclaration } from "@/server/agents/declaration";
import { recordAudit } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import { CURRENCY, CURRENCY_RULE, microsOf, PRICE, PRICE_RULE, PRICES_MAX, pricesText, type PriceText } from "./price-words";
import { MODEL_ID_MAX } from "./store";

export type { PriceText };
export type ConnectionPrices = { currency: string; prices: PriceText[] };

const refuse = (field: string, message: string) => new DomainError("BAD_REQUEST", "BAD_PRICE", message, { field });

function checked(input: ConnectionPrices): { currency: string; prices: Record<string, { input: number; output: number }> } {
  const currency = input.currency.trim();
  if (!CURRENCY.test(currency)) throw refuse("currency", CURRENCY_RULE);
  if (input.prices.length > PRICES_MAX) throw refuse("prices", `prices: a connection prices at most ${PRICES_MAX} models; remove some.`);
  const prices: Record<string, { input: number; output: number }> = {};
  for (const row of input.prices) {
    const model = row.model.trim();
    if (!model) throw refuse("prices", "prices: each price needs the model id it is for.");
    if (model.length > MODEL_ID_MAX) throw refuse("prices", `prices: a model id has at most ${MODEL_ID_MAX} characters.`);
    if (prices[model]) throw refuse("prices", `prices: ${model} is priced twice; keep one row for it.`);
    if (!PRICE.test(row.input.trim()) || !PRICE.test(row.output.trim())) throw refuse("prices", PRICE_RULE);
    prices[model] = { input: microsOf(row.input), output: microsOf(row.output) };
  }
  return { currency, prices };
}

/**
 * Replaces a connection's prices, audited. Runs made before keep the price they were made with (R-cost-fixed); the
 * new one counts from the next run on.
 */
export async function setPrices(db: Db, actor: string, name: string, input: ConnectionPrices): Promise<ConnectionPrices> {
  const { currency, prices } = checked(input);
  const [row] = await db
    .update(modelConnections)
    .set({ currency, prices, updatedBy: actor, updatedAt: new Date() })
    .where(eq(modelConnections.name, name))
    .returning({ currency: modelConnections.currency, prices: modelConnections.prices });
  if (!row) throw new DomainError("NOT_FOUND", "NO_SUCH_CONNECTION", `There is no model connection named ${name}; it may have been deleted meanwhile.`, { name });
  const shown = { currency: row.currency, prices: pricesText(row.prices) };
  await recordAudit(db, { actor, action: "model-connection.priced", target: name, detail: { name, ...shown } });
  return shown;
}

/**
 * The price a run of this model is made with, as SQL the run's insert evaluates (R-cost-fixed): the connection's
 * price for the agent's model, or for the connection's default model when the agent names none, in the same
 * statement as the row, so no price change can fall between reading it and writing the run. Null columns for an
 * inline model, and wherever the model has no price.
 */
export function priceAtStart(model: AgentDeclaration["model"]): { priceCurrency: SQL<string | null>; priceInput: SQL<number | null>; priceOutput: SQL<number | null> } | null {
  if (!isConnectionModel(model)) return null;
  const c = modelConnections;
  const id = sql`coalesce(${model.model ?? null}::text, ${c.defaultModel})`;
  const part = (key: "input" | "output") => sql<number | null>`(select (${c.prices} -> ${id} ->> ${key})::bigint from ${c} where ${c.name} = ${model.connection})`.mapWith(Number);
  return {
    priceCurrency: sql<string | null>`(select case when ${c.prices} -> ${id} is null then null else ${c.currency} end from ${c} where ${c.name} = ${model.connection})`,
    priceInput: part("input"),
    priceOutput: part("output"),
  };
}
