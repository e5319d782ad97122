// Settings → Models and the agent page's model picker: admins keep the model connections (R-conn-shape) and test
// them; builders see which there are and the models each offers. A key travels only as its `${NAME}` reference.
import { z } from "zod";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { adoptInline, inlineAgents } from "@/server/models/adopt";
import { offeredModels } from "@/server/models/offered";
import { PROVIDERS } from "@/server/models/presets";
import { CURRENCY, CURRENCY_RULE, PRICE, PRICE_RULE, PRICES_MAX } from "@/server/models/price-words";
import { setPrices } from "@/server/models/prices";
import { createConnection, getConnection, listConnections, MODEL_ID_MAX, MODELS_MAX, removeConnection, updateConnection } from "@/server/models/store";
import { testConnection } from "@/server/models/test";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { adminProcedure, builderProcedure, router } from "../init";
import { text } from "../text";

// Shape only; the store's checks give the sentences, so a form shows the same words either way.
const name = text().trim().min(1).max(64);
const provider = z.enum(PROVIDERS, { error: "provider must be openai, anthropic or openai-compatible." });
const modelId = text().max(MODEL_ID_MAX + 1);
const fields = {
  baseUrl: text().max(2_000).nullable().optional(),
  apiKey: text().max(80).nullable().optional(),
  defaultModel: modelId.nullable().optional(),
  models: z.array(modelId).max(MODELS_MAX + 1).nullable().optional(),
};
const price = text().trim().regex(PRICE, PRICE_RULE);
const prices = z.object({
  name,
  currency: text().trim().regex(CURRENCY, CURRENCY_RULE),
  prices: z.array(z.object({ model: modelId.trim().min(1, "prices: each price needs the model id it is for."), input: price, output: price })).max(PRICES_MAX, `prices: a connection prices at most ${PRICES_MAX} models; remove some.`),
});
const draft = z.object({ provider, baseUrl: fields.baseUrl, apiKey: fields.apiKey, defaultModel: fields.defaultModel, models: fields.models });

export const modelsRouter = router({
  list: builderProcedure.query(async () => listConnections(await getDb())),

  /**
   * A mutation, though it changes nothing the caller sees: reading the provider's list decrypts the key (a
   * `secret.used` row) and calls out, which no GET may do (R-req-acting-post). Call it when the picker opens.
   */
  offered: builderProcedure.input(z.object({ name })).mutation(async ({ input, ctx }) => offeredModels(await getDb(), ctx.user.id, input.name)),

  create: adminProcedure
    .input(z.object({ name, provider, ...fields }))
    .mutation(async ({ input, ctx }) => createConnection(await getDb(), ctx.user.id, input)),

  update: adminProcedure
    .input(z.object({ name, provider: provider.optional(), ...fields }))
    .mutation(async ({ input, ctx }) => updateConnection(await getDb(), ctx.user.id, input)),

  /** Prices per model (R-cost-price); a run keeps the price it was made with (R-cost-fixed). */
  prices: adminProcedure.input(prices).mutation(async ({ input, ctx }) => setPrices(await getDb(), ctx.user.id, input.name, input)),

  remove: adminProcedure.input(z.object({ name })).mutation(async ({ input, ctx }) => removeConnection(await getDb(), ctx.user.id, input.name)),

  /** A mutation, though it changes nothing: it decrypts a key and calls out, which no GET may do (R-req-acting-post). */
  test: adminProcedure
    .input(z.union([z.object({ name }), z.object({ draft })], { error: "Test a saved connection by its name, or a draft with its provider." }))
    .mutation(async ({ input, ctx }) => {
      const db = await getDb();
      if ("name" in input) return testConnection(db, ctx.user.id, { ...(await getConnection(db, input.name)), name: input.name });
      const d = input.draft;
      return testConnection(db, ctx.user.id, { provider: d.provider, baseUrl: d.baseUrl ?? null, apiKey: d.apiKey ?? null, defaultModel: d.defaultModel ?? null, models: d.models ?? null });
    }),

  inline: adminProcedure.query(async () => inlineAgents(await getDb())),

  adopt: adminProcedure
    .input(z.object({ agentId: z.uuid(), name }))
    .mutation(async ({ input, ctx }) => adoptInline(await getDb(), ctx.user.id, { tree: env().toolsDir, workspace: workspaceDir() }, input)),
});
