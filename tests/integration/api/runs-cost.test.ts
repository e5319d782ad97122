// A run's tokens and cost through the runs API over real HTTP (R-cost-api): a run of a priced model answers its
// cost as the database counted it at the price it was made with, also after the price changed; a run of a model
// with no price, or of an inline model, answers its tokens and a null cost, never 0; and the OpenAPI document
// describes the field the answers carry, as the answers are checked against it here.
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text } from "@/tests/support/loopback-model";
import { runsClient, type RunsClient } from "@/tests/support/runs-client";
import { apiStudio, bearer, call, readEvents, type ApiStudio, type RunView } from "./runs-studio";

let s: ApiStudio;
let runs: RunsClient;
let key: string;
const agents: Record<"priced" | "unpriced" | "inline", string> = { priced: "", unpriced: "", inline: "" };

/** Prices on the studio's one connection, as an admin sets them in Settings → Models. */
async function price(currency: string, input: string, output: string): Promise<void> {
  const { getDb } = await import("@/server/db");
  const { setPrices } = await import("@/server/models/prices");
  await setPrices(await getDb(), "user-admin", "priced-box", { currency, prices: [{ model: "loopback-large", input, output }] });
}

beforeAll(async () => {
  s = await apiStudio("api-runs-cost");
  const { getDb } = await import("@/server/db");
  const { createConnection } = await import("@/server/models/store");
  const { createAgent } = await import("@/server/agents/store");
  const { workspaceDir } = await import("@/server/system/filesystem/workspace");
  const db = await getDb();
  await createConnection(db, "user-admin", { name: "priced-box", provider: "openai-compatible", baseUrl: s.model.url, defaultModel: "loopback-large" });
  await price("EUR", "2.5", "10");
  // apiStudio's own agents are inline; these two go through the connection, one on its priced default model.
  const place = { tree: process.env.QUIVER_TOOLS_DIR!, workspace: workspaceDir(process.env.QUIVER_DATA_DIR!) };
  agents.priced = (await createAgent(db, s.builderId, { name: "priced writer", model: { connection: "priced-box" } }, place)).id;
  agents.unpriced = (await createAgent(db, s.builderId, { name: "unpriced writer", model: { connection: "priced-box", model: "loopback-small" } }, place)).id;
  agents.inline = await s.agent("inline writer");
  key = (await s.key({ name: "accounts", scopes: ["run", "read"] })).value;
  runs = runsClient(s.url, key);
});
afterAll(async () => s?.close());

/** Starts a run whose one reply counts these tokens, follows it over the API to its end, and reads it. */
async function ranWith(agentId: string, usage: { prompt_tokens: number; completion_tokens: number }): Promise<{ id: string; view: RunView; text: string }> {
  s.model.reply({ ...text("Counted."), usage });
  const id = await runs.start(agentId, "Count this.");
  const followed = await readEvents(runs.api(`/runs/${id}/events`), bearer(key));
  expect(followed.ended).toBe(true);
  const read = await call<RunView>(runs.api(`/runs/${id}`), { key });
  expect(read.status).toBe(200);
  return { id, view: read.json!, text: read.text };
}

/** The document's own schema for a run, with every component it refers to, compiled. */
async function runSchema() {
  const answer = await call<{ components: { schemas: Record<string, object> } }>(`${s.url}/api/v1/openapi.json`);
  expect(answer.status).toBe(200);
  const schemas = answer.json!.components.schemas;
  const ajv = new Ajv2020({ strict: false });
  for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
  return { schemas, validate: ajv.compile(schemas.Run!) };
}

describe("a run's tokens and cost through the runs API", () => {
  it("R-cost-api: a run of a priced model answers its tokens and its exact cost at its own price, unchanged after the price changes", async () => {
    const run = await ranWith(agents.priced, { prompt_tokens: 1_000, completion_tokens: 300 });
    expect(run.view.status).toBe("done");
    expect(run.view.tokens).toEqual({ input: 1_000, output: 300 });
    // 1000 × 2.50 / 10^6 + 300 × 10.00 / 10^6 = 0.0025 + 0.003
    expect(run.view.cost).toEqual({ currency: "EUR", amount: "0.005500000000", price: { input: "2.50", output: "10.00" } });

    await price("USD", "100", "100");
    const again = await call<RunView>(runs.api(`/runs/${run.id}`), { key });
    expect(again.json!.cost).toEqual(run.view.cost);
    const next = await ranWith(agents.priced, { prompt_tokens: 10, completion_tokens: 10 });
    expect(next.view.cost).toEqual({ currency: "USD", amount: "0.002000000000", price: { input: "100.00", output: "100.00" } });
  });

  it("R-cost-api: a run of a model with no price, or of an inline model, answers its tokens and a null cost, never 0", async () => {
    for (const agentId of [agents.unpriced, agents.inline]) {
      const run = await ranWith(agentId, { prompt_tokens: 40, completion_tokens: 2 });
      expect(run.view.status).toBe("done");
      expect(run.view.tokens).toEqual({ input: 40, output: 2 });
      expect(run.view.cost).toBeNull();
      // Said in the answer itself, not left out.
      expect(run.text).toContain('"cost":null');
    }
  });

  it("R-cost-api: the OpenAPI document describes the cost, and both kinds of answer match its Run schema", async () => {
    const { schemas, validate } = await runSchema();
    const run = schemas.Run as { properties: Record<string, unknown>; required: string[] };
    expect(run.required).toEqual(expect.arrayContaining(["tokens", "cost"]));
    expect(run.properties.cost).toEqual({ $ref: "#/components/schemas/RunCost" });
    const cost = schemas.RunCost as { type: string[]; description: string; required: string[]; properties: Record<string, { type: string }> };
    expect(cost.type).toEqual(["object", "null"]);
    expect(cost.description).toMatch(/null when it has none .*never 0/);
    expect(cost.required).toEqual(["currency", "amount", "price"]);
    expect(cost.properties.amount!.type).toBe("string");

    const priced = await ranWith(agents.priced, { prompt_tokens: 3, completion_tokens: 1 });
    const unpriced = await ranWith(agents.inline, { prompt_tokens: 3, completion_tokens: 1 });
    for (const answer of [priced.view, unpriced.view]) expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
    // The document's schema refuses what a client must never be given: a cost that is a number a float would round.
    expect(validate({ ...priced.view, cost: { ...priced.view.cost!, amount: 0.0000003 } })).toBe(false);
  });
});
