// The models procedures on the studio's PGlite, against the loopback model: the shapes Settings → Models and the
// agent page read, input refused at the edge, and no key value in any answer (R-conn-shape, R-conn-test).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { inputSentence } from "@/server/trpc/sentences";
import { LISTED, startLoopbackModel, type LoopbackModel } from "@/tests/support/loopback-model";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-models-router-"));
fs.mkdirSync(path.join(scratch, "tools"));
// Before anything reads the configuration: this test's own data folder and studio key.
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = path.join(scratch, "tools");
process.env.DATABASE_URL = "";
process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);

const ADMIN = { id: "user-ada", email: "ada@quiver.test", name: "Ada", role: "admin" as const };
const BUILDER = { id: "user-ben", email: "ben@quiver.test", name: "Ben", role: "builder" as const };
const KEY_VALUE = "sk-router-secret-5555";

let model: LoopbackModel;
const answers: unknown[] = [];

async function as(person: typeof ADMIN | typeof BUILDER) {
  const { createCallerFactory } = await import("@/server/trpc/init");
  const { appRouter } = await import("@/server/trpc/router");
  return createCallerFactory(appRouter)({ headers: new Headers(), user: person });
}

/** Every answer is kept, so the last test can look through all of them for the key. */
const kept = async <T>(work: Promise<T>): Promise<T> => {
  const value = await work;
  answers.push(value);
  return value;
};
const refused = async (work: Promise<unknown>) => {
  const err = await work.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(TRPCError);
  answers.push((err as TRPCError).message);
  return err as TRPCError;
};

beforeAll(async () => {
  model = await startLoopbackModel();
  model.expectKey = KEY_VALUE;
  const { getDb } = await import("@/server/db");
  const { user } = await import("@/db/schema");
  await (await getDb()).insert(user).values([ADMIN, BUILDER]);
  await (await as(ADMIN)).secrets.create({ name: "ROUTER_KEY", value: KEY_VALUE });
});

afterAll(async () => {
  await model.close();
  const { closeDatabase } = await import("@/server/db");
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the models procedures", () => {
  it("R-conn-shape: create, list and offered answer in the shapes the pages read", async () => {
    const admin = await as(ADMIN);
    const builder = await as(BUILDER);
    await kept(admin.models.create({ name: "stub", provider: "openai-compatible", baseUrl: model.url, apiKey: "${ROUTER_KEY}", defaultModel: "loopback-small" }));
    const agent = await kept(builder.agents.create({ declaration: { name: "router scribe", model: { connection: "stub" } } }));
    const [row] = await kept(builder.models.list());
    expect(row).toEqual({
      name: "stub",
      provider: "openai-compatible",
      baseUrl: model.url,
      apiKey: "${ROUTER_KEY}",
      defaultModel: "loopback-small",
      models: null,
      currency: "USD",
      prices: [],
      usedBy: [{ id: agent.id, name: "router scribe" }],
      updatedAt: expect.any(Date),
    });
    expect(await kept(builder.models.offered({ name: "stub" }))).toEqual({ models: [...LISTED], listed: true, sentence: null });
  });

  it("R-conn-test: Test by name and of a draft, in the same shape", async () => {
    const admin = await as(ADMIN);
    const saved = await kept(admin.models.test({ name: "stub" }));
    expect(saved).toMatchObject({ ok: true, models: [...LISTED], ms: expect.any(Number) });
    expect(saved.steps.map((s) => Object.keys(s).sort())).toEqual(Array(3).fill(["ms", "ok", "sentence", "what"]));
    const drafted = await kept(admin.models.test({ draft: { provider: "openai-compatible", baseUrl: model.url, apiKey: "${ROUTER_KEY}" } }));
    expect(drafted.sentence).toMatch(/^Connected in \d+ ms: .* lists 2 models, and loopback-large answered in \d+ ms\.$/);
  });

  it("R-conn-adopt: inline lists agents written inline, adopt moves them, and remove names the users it keeps", async () => {
    const admin = await as(ADMIN);
    const inlineAgent = await kept(admin.agents.create({ declaration: { name: "inline scribe", model: { provider: "openai-compatible", model: "loopback-large", base_url: model.url, api_key: "${ROUTER_KEY}" } } }));
    expect(await kept(admin.models.inline())).toEqual([{ agentId: inlineAgent.id, agentName: "inline scribe", provider: "openai-compatible", model: "loopback-large", baseUrl: model.url }]);
    expect(await kept(admin.models.adopt({ agentId: inlineAgent.id, name: "adopted" }))).toEqual({ connection: "adopted", agents: ["inline scribe"] });
    expect(await kept(admin.models.inline())).toEqual([]);
    const err = await refused(admin.models.remove({ name: "adopted" }));
    expect(err.message).toBe("adopted is used by the agent “inline scribe”; move it to another connection first, then delete it.");
  });

  it("R-input-text: refuses at the edge what the store could not keep, naming the field", async () => {
    const admin = await as(ADMIN);
    const nul = await refused(admin.models.create({ name: "bad\u0000name", provider: "openai-compatible", baseUrl: model.url }));
    expect(nul.code).toBe("BAD_REQUEST");
    expect(nul.message).toMatch(/name/);
    const provider = await refused(admin.models.create({ name: "who", provider: "mistral" as never, baseUrl: model.url }));
    expect(provider.message).toMatch(/openai, anthropic or openai-compatible/);
    const forbidden = await refused((await as(BUILDER)).models.test({ name: "stub" }));
    expect(forbidden.code).toBe("FORBIDDEN");
  });

  it("R-cost-price: prices answers as the page shows them, refuses a wrong price at the edge in a sentence naming its field, and is an admin's", async () => {
    const admin = await as(ADMIN);
    expect(await kept(admin.models.prices({ name: "stub", currency: "EUR", prices: [{ model: "loopback-small", input: "0.5", output: "1.25" }] }))).toEqual({
      currency: "EUR",
      prices: [{ model: "loopback-small", input: "0.50", output: "1.25" }],
    });
    expect((await kept(admin.models.list())).find((c) => c.name === "stub")).toMatchObject({ currency: "EUR", prices: [{ model: "loopback-small", input: "0.50", output: "1.25" }] });
    const wrong = await refused(admin.models.prices({ name: "stub", currency: "EUR", prices: [{ model: "loopback-small", input: "1,5", output: "1" }] }));
    expect(wrong.code).toBe("BAD_REQUEST");
    // The sentence the errorFormatter answers over HTTP, from the issues the edge found.
    const sentence = (err: TRPCError) => (err.cause instanceof ZodError ? inputSentence(err.cause.issues) : err.message);
    expect(sentence(wrong)).toBe("prices: write each price per million tokens as a number such as 2.50, with at most 6 digits after the point and no currency sign.");
    expect(sentence(await refused(admin.models.prices({ name: "stub", currency: "euro", prices: [] })))).toBe("currency must be three capital letters, such as USD or EUR.");
    expect((await refused((await as(BUILDER)).models.prices({ name: "stub", currency: "USD", prices: [] }))).code).toBe("FORBIDDEN");
  });

  it("R-conn-shape: no answer carries the key's value", () => {
    expect(answers.length).toBeGreaterThan(10);
    expect(JSON.stringify(answers)).not.toContain(KEY_VALUE);
    expect(JSON.stringify(answers)).toContain("${ROUTER_KEY}");
  });
});
