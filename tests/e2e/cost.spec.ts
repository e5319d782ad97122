// What runs cost, as an admin and a person reading runs meet it: the admin prices a connection's model in Settings →
// Models (a wrong currency and a wrong price each get their sentence at the field), a run on that model shows its
// tokens and its cost at its own price on its page, still after the price changes, a run of an unpriced model says
// "no price set", and /runs totals both agents under its filters. The agents and the connection are deleted at the
// end; their runs stay listed under names no other spec looks for.
import { expect, test, type Page } from "@playwright/test";
import { startLoopbackModel, text, type LoopbackModel } from "../support/loopback-model";
import { ownOrigin } from "./support/origin";

const CONNECTION = "cost-e2e";
const PRICED = "Cost e2e priced writer";
const UNPRICED = "Cost e2e unpriced writer";

let model: LoopbackModel;
const made: string[] = [];

test.beforeAll(async () => {
  model = await startLoopbackModel();
});

test.afterAll(async () => {
  await model.close();
});

async function post(page: Page, procedure: string, data: unknown) {
  const answer = await page.request.post(`/api/trpc/${procedure}`, { headers: ownOrigin, data });
  const body = await answer.text();
  expect(answer.ok(), `${procedure}: ${body}`).toBe(true);
  return (JSON.parse(body) as { result: { data: Record<string, unknown> } }).result.data;
}

async function agentOn(page: Page, name: string, modelId?: string): Promise<string> {
  const { id } = await post(page, "agents.create", { declaration: { name, model: { connection: CONNECTION, ...(modelId ? { model: modelId } : {}) }, tools: [] } });
  made.push(id as string);
  return id as string;
}

/** One run whose one reply counts these tokens, read back on its page once done. */
async function runOnPage(page: Page, agentId: string, usage: { prompt_tokens: number; completion_tokens: number }) {
  model.reply({ ...text("Counted."), usage });
  const { runId } = await post(page, "runs.start", { agentId, message: "Hello." });
  await page.goto(`/runs/${runId as string}`);
  const details = page.getByRole("complementary", { name: "Run details" });
  await expect(details).toContainText("Done");
  return { runId: runId as string, details };
}

test("R-cost-price, R-cost-run-page, R-cost-fixed, R-cost-unpriced, R-cost-totals: a priced model's runs show their cost and /runs sums it per agent", async ({ page }) => {
  try {
    await post(page, "models.create", { name: CONNECTION, provider: "openai-compatible", baseUrl: model.url, defaultModel: "loopback-large" });

    // The admin prices the connection's default model in Settings → Models.
    await page.goto("/settings/models");
    const row = page.getByRole("row", { name: new RegExp(CONNECTION) });
    await expect(row).toContainText("No prices set");
    await row.getByRole("button", { name: `Prices of ${CONNECTION}` }).click();
    const dialog = page.getByRole("dialog", { name: `Prices of ${CONNECTION}` });
    await expect(dialog.getByLabel("Currency", { exact: true })).toHaveValue("USD");
    await expect(dialog.getByLabel("Model of price 1")).toHaveValue("loopback-large");
    await dialog.getByLabel("Currency", { exact: true }).fill("EU");
    await dialog.getByLabel("Input price of loopback-large").fill("2.5");
    await dialog.getByLabel("Output price of loopback-large").fill("ten");
    await dialog.getByRole("button", { name: "Save prices" }).click();
    await expect(dialog.getByText("currency must be three capital letters, such as USD or EUR.")).toBeVisible();
    await expect(dialog.getByText(/^prices: write each price per million tokens as a number such as 2\.50/)).toBeVisible();
    await dialog.getByLabel("Currency", { exact: true }).fill("eur");
    await expect(dialog.getByLabel("Currency", { exact: true })).toHaveValue("EUR");
    await dialog.getByLabel("Output price of loopback-large").fill("10");
    await dialog.getByRole("button", { name: "Save prices" }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText("loopback-large 2.50 in · 10.00 out EUR");

    // A run on the priced model: its tokens, and 1000 × 2.50 + 300 × 10 per million = 0.0055 EUR.
    const priced = await agentOn(page, PRICED);
    const first = await runOnPage(page, priced, { prompt_tokens: 1_000, completion_tokens: 300 });
    await expect(first.details).toContainText("1,000 in · 300 out");
    await expect(first.details).toContainText("0.0055 EUR");
    await expect(first.details).toContainText("at 2.50 in · 10.00 out per million tokens");

    // A new price counts from the next run on; the run already made keeps its own.
    await post(page, "models.prices", { name: CONNECTION, currency: "USD", prices: [{ model: "loopback-large", input: "100", output: "100" }] });
    await page.reload();
    await expect(first.details).toContainText("0.0055 EUR");
    await expect(first.details).not.toContainText("USD");

    // A model with no price: its tokens and "no price set", never a cost of 0.
    const unpriced = await agentOn(page, UNPRICED, "loopback-small");
    const other = await runOnPage(page, unpriced, { prompt_tokens: 40, completion_tokens: 2 });
    await expect(other.details).toContainText("40 in · 2 out");
    await expect(other.details).toContainText("no price set");
    await expect(other.details).not.toContainText("0.00");

    // /runs totals each agent over the filters.
    await page.goto("/runs");
    const totals = page.getByRole("list", { name: "Totals per agent" });
    const pricedTotal = totals.getByRole("listitem", { name: `Totals of ${PRICED}` });
    await expect(pricedTotal).toContainText("Runs1");
    await expect(pricedTotal).toContainText("1,000 in · 300 out");
    await expect(pricedTotal).toContainText("0.0055 EUR");
    await expect(totals.getByRole("listitem", { name: `Totals of ${UNPRICED}` })).toContainText("no price set");
    await page.getByLabel("When").selectOption({ label: "The last 24 hours" });
    await expect(pricedTotal).toContainText("0.0055 EUR");
    await page.getByLabel("Status").selectOption({ label: "Failed" });
    await expect(pricedTotal).toHaveCount(0);
  } finally {
    // Leave the shared studio's agents and connections as they were: the agents first, so the connection is unused.
    for (const id of made) await page.request.post("/api/trpc/agents.remove", { headers: ownOrigin, data: { id } });
    await page.request.post("/api/trpc/models.remove", { headers: ownOrigin, data: { name: CONNECTION } });
  }
});
