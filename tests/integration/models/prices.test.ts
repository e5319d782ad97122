// Prices per model on a connection and what runs cost, against a real PGlite studio and the loopback model: prices
// kept exactly as written, wrong ones refused in sentences, a run counted at the price it was made with, a run with
// no price left without a cost, and the totals per agent summed by the database under the list's filter.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit, runs } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { costOf, costWords, decimalOf, microsOf } from "@/server/models/price-words";
import { setPrices } from "@/server/models/prices";
import { createConnection, listConnections } from "@/server/models/store";
import { agentTotals } from "@/server/runtime/queries";
import { runSummary } from "@/server/runtime/store";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { text } from "@/tests/support/loopback-model";
import { ANN, settled, studio, type Studio } from "../runtime/setup";

let s: Studio;
const place = () => ({ tree: s.tree, workspace: workspaceDir(s.dataDir) });
const refusal = async (work: Promise<unknown>) => ((await work.then(() => null, (err: Error) => err)) as Error & { details?: Record<string, unknown> }) ?? new Error("not refused");

beforeAll(async () => {
  s = await studio("prices", {});
  await createConnection(s.database.db, ANN.id, { name: "priced-box", provider: "openai-compatible", baseUrl: s.model.url, defaultModel: "loopback-large" });
});
afterAll(() => s.close());

/** One run of the agent whose one reply counts these tokens. */
async function runWith(agentId: string, usage: { prompt_tokens: number; completion_tokens: number }) {
  s.model.reply({ ...text("Counted."), usage });
  const { runId } = await s.runtime.start({ agentId, message: "Hello.", user: ANN });
  const run = await settled(s, runId);
  expect(run.status).toBe("done");
  return runSummary(s.database.db, runId);
}

describe("R-cost-exact: prices are kept exactly as an admin writes them", () => {
  it("R-cost-exact: turns decimal text into micro-units and back without a float in between", () => {
    expect(microsOf("2.5")).toBe(2_500_000);
    expect(microsOf("0.000001")).toBe(1);
    expect(microsOf("1234567.123456")).toBe(1_234_567_123_456);
    expect(decimalOf(2_500_000)).toBe("2.50");
    expect(decimalOf(150_000)).toBe("0.15");
    expect(decimalOf(1)).toBe("0.000001");
    // 0.1 + 0.2 as floats is 0.30000000000000004; as micro-units it is 0.3 exactly.
    expect(decimalOf(microsOf("0.1") + microsOf("0.2"))).toBe("0.30");
    expect(costOf({ input: 3, output: 1 }, { input: 100_000, output: 200_000 })).toBe("0.000000500000");
    expect(costWords("0.000000500000", "USD")).toBe("0.00000050 USD");
    expect(costWords("12.345000000000", "EUR")).toBe("12.35 EUR");
    expect(costWords("1234.004999999999", "USD")).toBe("1,234.00 USD");
    expect(costWords("0.000000000000", "USD")).toBe("0.00 USD");
  });
});

describe("R-cost-price: an admin prices a connection's models", () => {
  it("R-cost-price: keeps the currency and each model's prices, lists them as written and audits the change", async () => {
    const shown = await setPrices(s.database.db, ANN.id, "priced-box", { currency: "EUR", prices: [{ model: "loopback-large", input: "2.5", output: "10" }, { model: "loopback-small", input: "0.15", output: "0.600001" }] });
    expect(shown).toEqual({ currency: "EUR", prices: [{ model: "loopback-large", input: "2.50", output: "10.00" }, { model: "loopback-small", input: "0.15", output: "0.600001" }] });
    const [listed] = (await listConnections(s.database.db)).filter((c) => c.name === "priced-box");
    expect(listed).toMatchObject({ currency: "EUR", prices: shown.prices });
    const rows = await s.database.db.select().from(audit).where(eq(audit.action, "model-connection.priced"));
    expect(rows.at(-1)).toMatchObject({ actor: ANN.id, target: "priced-box" });
  });

  it("R-cost-price: refuses a wrong currency, a wrong price and a model priced twice, each in a sentence naming its field", async () => {
    const db = s.database.db;
    const cases: Array<[Parameters<typeof setPrices>[3], string, string]> = [
      [{ currency: "usd", prices: [] }, "currency", "currency must be three capital letters, such as USD or EUR."],
      [{ currency: "USD", prices: [{ model: "m", input: "$2", output: "1" }] }, "prices", "prices: write each price per million tokens as a number such as 2.50, with at most 6 digits after the point and no currency sign."],
      [{ currency: "USD", prices: [{ model: "m", input: "0.0000001", output: "1" }] }, "prices", "prices: write each price per million tokens as a number such as 2.50, with at most 6 digits after the point and no currency sign."],
      [{ currency: "USD", prices: [{ model: "m", input: "1", output: "1" }, { model: " m ", input: "2", output: "2" }] }, "prices", "prices: m is priced twice; keep one row for it."],
      [{ currency: "USD", prices: [{ model: " ", input: "1", output: "1" }] }, "prices", "prices: each price needs the model id it is for."],
    ];
    for (const [input, field, sentence] of cases) {
      const err = await refusal(setPrices(db, ANN.id, "priced-box", input));
      expect(err.message).toBe(sentence);
      expect(err.details).toMatchObject({ field });
    }
    expect((await refusal(setPrices(db, ANN.id, "no-such-box", { currency: "USD", prices: [] }))).message).toBe("There is no model connection named no-such-box; it may have been deleted meanwhile.");
  });
});

describe("R-cost-fixed: a run is counted at the price it was made with", () => {
  it("R-cost-fixed: a run on a priced model keeps that price and its exact cost after the price changes", async () => {
    await setPrices(s.database.db, ANN.id, "priced-box", { currency: "EUR", prices: [{ model: "loopback-large", input: "2.5", output: "10" }] });
    const agent = await createAgent(s.database.db, ANN.id, { name: "priced writer", model: { connection: "priced-box" } }, place());
    const first = await runWith(agent.id, { prompt_tokens: 1_000, completion_tokens: 300 });
    expect(first.price).toEqual({ currency: "EUR", input: 2_500_000, output: 10_000_000 });
    // 1000 × 2.50 / 10^6 + 300 × 10 / 10^6 = 0.0025 + 0.003
    expect(first.cost).toBe("0.005500000000");
    expect(first.cost).toBe(costOf({ input: 1_000, output: 300 }, first.price!));

    await setPrices(s.database.db, ANN.id, "priced-box", { currency: "USD", prices: [{ model: "loopback-large", input: "100", output: "100" }] });
    const again = await runSummary(s.database.db, first.id);
    expect(again.price).toEqual(first.price);
    expect(again.cost).toBe("0.005500000000");
    const second = await runWith(agent.id, { prompt_tokens: 10, completion_tokens: 10 });
    expect(second.price).toEqual({ currency: "USD", input: 100_000_000, output: 100_000_000 });
    expect(second.cost).toBe("0.002000000000");
  });

  it("R-cost-fixed: the stored cost follows the run's tokens each time they are stored, at its own price", async () => {
    const [row] = await s.database.db.select({ id: runs.id }).from(runs).where(eq(runs.priceCurrency, "EUR"));
    await s.database.db.update(runs).set({ tokensIn: 2_000_000, tokensOut: 1 }).where(eq(runs.id, row!.id));
    expect((await runSummary(s.database.db, row!.id)).cost).toBe("5.000010000000");
  });

  it("R-cost-unpriced: a run of a model with no price, or of an inline model, has its tokens and no cost, never 0", async () => {
    const unpriced = await createAgent(s.database.db, ANN.id, { name: "unpriced writer", model: { connection: "priced-box", model: "loopback-small" } }, place());
    const run = await runWith(unpriced.id, { prompt_tokens: 40, completion_tokens: 2 });
    expect(run).toMatchObject({ tokensIn: 40, tokensOut: 2, price: null, cost: null });
    const inline = await createAgent(s.database.db, ANN.id, { name: "inline writer", model: { provider: "openai-compatible", model: "loopback-small", base_url: s.model.url } }, place());
    expect(await runWith(inline.id, { prompt_tokens: 7, completion_tokens: 1 })).toMatchObject({ tokensIn: 7, price: null, cost: null });
  });
});

describe("R-cost-totals: /runs sums runs, tokens and cost per agent under its filter", () => {
  it("R-cost-totals: sums each agent's runs by currency, counts its unpriced ones, and follows the filter", async () => {
    const totals = await agentTotals(s.database.db, {});
    const byName = new Map(totals.map((t) => [t.agentName, t]));
    expect(byName.get("priced writer")).toMatchObject({
      runs: 2,
      tokensIn: 2_000_010,
      tokensOut: 11,
      unpriced: 0,
      costs: [
        { currency: "EUR", amount: "5.000010000000" },
        { currency: "USD", amount: "0.002000000000" },
      ],
    });
    expect(byName.get("unpriced writer")).toMatchObject({ runs: 1, tokensIn: 40, tokensOut: 2, unpriced: 1, costs: [] });
    expect(byName.get("inline writer")).toMatchObject({ runs: 1, unpriced: 1, costs: [] });
    // Most tokens first.
    expect(totals[0]!.agentName).toBe("priced writer");

    const priced = byName.get("priced writer")!;
    expect(await agentTotals(s.database.db, { agentId: priced.agentId })).toEqual([priced]);
    expect(await agentTotals(s.database.db, { status: "failed" })).toEqual([]);
    expect((await agentTotals(s.database.db, { period: "day" })).map((t) => t.agentName).sort()).toEqual(["inline writer", "priced writer", "unpriced writer"]);
    await s.database.db.update(runs).set({ startedAt: new Date(Date.now() - 3 * 86_400_000) }).where(eq(runs.agentId, priced.agentId));
    expect((await agentTotals(s.database.db, { period: "day" })).map((t) => t.agentName).sort()).toEqual(["inline writer", "unpriced writer"]);
    expect((await agentTotals(s.database.db, { period: "week" })).map((t) => t.agentName)).toContain("priced writer");
  });
});
