// A connection's Test and the models builders are offered, against the loopback model: its list and a one-token
// answer, an address nothing answers at, a refused key, a model the server lacks; never the key's value.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit } from "@/db/schema";
import { offeredModels } from "@/server/models/offered";
import { createConnection, updateConnection } from "@/server/models/store";
import { testConnection } from "@/server/models/test";
import { createSecret } from "@/server/secrets/store";
import { LISTED } from "@/tests/support/loopback-model";
import { studio, type Studio } from "../runtime/setup";

const KEY_VALUE = "sk-test-connection-9876543210";
const ADMIN = "user-ann";

let s: Studio;
/** An address on 127.0.0.1 where nothing listens any more. */
let closed: string;

beforeAll(async () => {
  s = await studio("test-connection", {});
  await createSecret(s.database.db, ADMIN, { name: "STUB_KEY", value: KEY_VALUE });
  await createSecret(s.database.db, ADMIN, { name: "WRONG_KEY", value: "sk-wrong-000" });
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterAll(() => s.close());
beforeEach(() => {
  s.model.reset();
  s.model.expectKey = KEY_VALUE;
});

const draft = (extra: Partial<Parameters<typeof testConnection>[2]> = {}) => ({ provider: "openai-compatible" as const, baseUrl: s.model.url, apiKey: "${STUB_KEY}", defaultModel: null, ...extra });

describe("R-conn-test: Test says what works or what is wrong", () => {
  it("R-conn-test: lists the stub's models and has the first answer one token, in one sentence with its time", async () => {
    const answer = await testConnection(s.database.db, ADMIN, draft());
    expect(answer.ok).toBe(true);
    expect(answer.models).toEqual([...LISTED]);
    expect(answer.steps.map((step) => [step.what, step.ok])).toEqual([["key", true], ["list", true], ["answer", true]]);
    expect(answer.sentence).toMatch(new RegExp(`^Connected in \\d+ ms: ${s.model.url} lists 2 models, and loopback-large answered in \\d+ ms\\.$`));
    const probe = s.model.probes.at(-1)!;
    expect(probe.body).toMatchObject({ model: "loopback-large", max_tokens: 1 });
    expect(probe.headers.authorization).toBe(`Bearer ${KEY_VALUE}`);
    expect(JSON.stringify(answer)).not.toContain(KEY_VALUE);
    const used = await s.database.db.select().from(audit).where(eq(audit.action, "secret.used"));
    expect(used.at(-1)).toMatchObject({ target: "STUB_KEY", detail: { via: "model-connection", tool: "test of the model connection (not saved)" } });
  });

  it("R-conn-test: an address nothing answers at is told as unreachable, and no answer is asked for", async () => {
    const answer = await testConnection(s.database.db, ADMIN, draft({ baseUrl: closed }));
    expect(answer.ok).toBe(false);
    expect(answer.steps.map((step) => step.what)).toEqual(["key", "list"]);
    expect(answer.sentence).toMatch(new RegExp(`^The server at ${closed} could not be reached \\(connection refused\\); check the address and that the server is running \\(after \\d+ ms\\)\\.$`));
  });

  it("R-conn-test: a key the server refuses is named, never shown", async () => {
    const answer = await testConnection(s.database.db, ADMIN, draft({ apiKey: "${WRONG_KEY}" }));
    expect(answer.ok).toBe(false);
    expect(answer.sentence).toMatch(new RegExp(`^The server at ${s.model.url} refused the key \\$\\{WRONG_KEY\\} \\(HTTP 401\\); check the secret's value in Settings → Secrets, or pick another key \\(after \\d+ ms\\)\\.$`));
    expect(JSON.stringify(answer)).not.toContain("sk-wrong-000");
  });

  it("R-conn-test: a default model the server does not list is missing, with what it lists", async () => {
    const answer = await testConnection(s.database.db, ADMIN, draft({ defaultModel: "qwen9" }));
    expect(answer.ok).toBe(false);
    expect(answer.steps.at(-1)).toMatchObject({ what: "model", ok: false });
    expect(answer.sentence).toMatch(/^The server at .* does not list the model qwen9; pick one it lists \(loopback-large, loopback-small\), or load it there \(after \d+ ms\)\.$/);
  });

  it("R-conn-test: a secret that does not exist is said before anything is called", async () => {
    const before = s.model.probes.length;
    const answer = await testConnection(s.database.db, ADMIN, draft({ apiKey: "${NOT_MADE}" }));
    expect(answer).toMatchObject({ ok: false, models: [], steps: [{ what: "key", ok: false }] });
    expect(answer.sentence).toMatch(/^There is no secret named NOT_MADE; an admin can create it in Settings → Secrets \(after \d+ ms\)\.$/);
    expect(s.model.probes.length).toBe(before);
  });
});

describe("R-conn-offered: the models builders may pick", () => {
  it("R-conn-offered: the provider's list, kept a minute, read afresh after an edit; the connection's own list when it has one", async () => {
    const db = s.database.db;
    await createConnection(db, ADMIN, { name: "offering", provider: "openai-compatible", baseUrl: s.model.url, apiKey: "${STUB_KEY}" });
    const now = Date.now();
    expect(await offeredModels(db, ADMIN, "offering", now)).toEqual({ models: [...LISTED], listed: true, sentence: null });
    s.model.models = ["loopback-new"];
    expect((await offeredModels(db, ADMIN, "offering", now + 1_000)).models).toEqual([...LISTED]);
    expect((await offeredModels(db, ADMIN, "offering", now + 61_000)).models).toEqual(["loopback-new"]);
    await updateConnection(db, ADMIN, { name: "offering", models: ["only-this"] });
    expect(await offeredModels(db, ADMIN, "offering", now + 62_000)).toEqual({ models: ["only-this"], listed: true, sentence: null });
  });

  it("R-conn-offered: a list that cannot be read says why and offers the default to type over", async () => {
    const db = s.database.db;
    await createConnection(db, ADMIN, { name: "gone-away", provider: "openai-compatible", baseUrl: closed, defaultModel: "qwen3" });
    const offered = await offeredModels(db, ADMIN, "gone-away");
    expect(offered.listed).toBe(false);
    expect(offered.models).toEqual(["qwen3"]);
    expect(offered.sentence).toMatch(/^The server at .* could not be reached \(connection refused\); check the address and that the server is running\. Type the model's id instead\.$/);
  });
});
