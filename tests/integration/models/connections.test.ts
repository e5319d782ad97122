// The model connections' store against a real PGlite studio: each write audited with the key only as its reference,
// the sentences a wrong field gets, a connection in use kept, agents' references checked on save, and inline models
// adopted into a connection with a version per agent.
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents, agentVersions, audit } from "@/db/schema";
import { secretReferenceSources } from "@/server/agents/references";
import { agentHistory, createAgent, getAgent } from "@/server/agents/store";
import { adoptInline, inlineAgents } from "@/server/models/adopt";
import { createConnection, listConnections, removeConnection, updateConnection } from "@/server/models/store";
import { createSecret, deleteSecret } from "@/server/secrets/store";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { studio, type Studio } from "../runtime/setup";

const KEY_VALUE = "sk-connections-test-0123456789";
const ADMIN = "user-ann";

let s: Studio;
const place = () => ({ tree: s.tree, workspace: workspaceDir(s.dataDir) });
const refusal = async (work: Promise<unknown>) => ((await work.then(() => null, (err: Error) => err)) as Error & { details?: Record<string, unknown> }) ?? new Error("not refused");

beforeAll(async () => {
  s = await studio("connections", {});
  await createSecret(s.database.db, ADMIN, { name: "LOCAL_KEY", value: KEY_VALUE });
});
afterAll(() => s.close());

describe("R-conn-shape: an admin keeps connections", () => {
  it("R-conn-shape: creates, lists with its users, updates and deletes, each an audit row naming the key by reference only", async () => {
    const db = s.database.db;
    const made = await createConnection(db, ADMIN, { name: "local-box", provider: "openai-compatible", baseUrl: `${s.model.url}/`, apiKey: "${LOCAL_KEY}", defaultModel: "loopback-small", models: [" loopback-small ", "loopback-large", "loopback-small"] });
    expect(made).toMatchObject({ name: "local-box", baseUrl: `${s.model.url}/`, apiKey: "${LOCAL_KEY}", defaultModel: "loopback-small", models: ["loopback-small", "loopback-large"] });
    await updateConnection(db, ADMIN, { name: "local-box", models: null });
    const [row] = (await listConnections(db)).filter((c) => c.name === "local-box");
    expect(row).toMatchObject({ provider: "openai-compatible", apiKey: "${LOCAL_KEY}", defaultModel: "loopback-small", models: null, usedBy: [] });
    await removeConnection(db, ADMIN, "local-box");
    const rows = await db.select().from(audit).where(like(audit.action, "model-connection.%"));
    expect(rows.map((r) => r.action)).toEqual(["model-connection.created", "model-connection.updated", "model-connection.deleted"]);
    expect(JSON.stringify(rows)).not.toContain(KEY_VALUE);
    expect(JSON.stringify(rows)).toContain("${LOCAL_KEY}");
  });

  it("R-conn-name: refuses a name agents could not reference, saying what to write", async () => {
    const err = await refusal(createConnection(s.database.db, ADMIN, { name: "Local Ollama", provider: "openai-compatible", baseUrl: s.model.url }));
    expect(err.message).toBe("“Local Ollama” is not a connection name: use lower-case letters, digits and dashes, at most 63 characters, starting and ending with a letter or digit (for example local-ollama).");
  });

  it("R-conn-shape: says what each wrong field needs", async () => {
    const db = s.database.db;
    const cases: Array<[Parameters<typeof createConnection>[2], string, RegExp]> = [
      [{ name: "no-address", provider: "openai-compatible" }, "baseUrl", /needs its address, e\.g\. http:\/\/127\.0\.0\.1:11434\/v1/],
      [{ name: "bad-address", provider: "openai-compatible", baseUrl: "ftp://box/v1" }, "baseUrl", /http or https URL/],
      [{ name: "no-key", provider: "openai" }, "apiKey", /^Pick the secret that holds your OpenAI API key\.$/],
      [{ name: "clear-key", provider: "anthropic", apiKey: "sk-ant-oops" }, "apiKey", /never written here: save it in Settings → Secrets/],
      [{ name: "unknown-key", provider: "openai", apiKey: "${NOPE}" }, "apiKey", /There is no secret named NOPE/],
      [{ name: "off-list", provider: "openai-compatible", baseUrl: s.model.url, defaultModel: "x", models: ["y"] }, "defaultModel", /not among the models builders may pick/],
    ];
    for (const [input, field, sentence] of cases) {
      const err = await refusal(createConnection(db, ADMIN, input));
      expect(err.message, input.name).toMatch(sentence);
      expect(err.details, input.name).toEqual({ field });
      expect(err.message).not.toContain("sk-ant-oops");
    }
  });

  it("R-conn-shape: a connection's key is a place its secret is used, so the secret is not deleted from under it", async () => {
    await createConnection(s.database.db, ADMIN, { name: "keyed", provider: "openai-compatible", baseUrl: s.model.url, apiKey: "${LOCAL_KEY}" });
    const err = await refusal(deleteSecret(s.database.db, ADMIN, "LOCAL_KEY", secretReferenceSources));
    expect(err.message).toMatch(/LOCAL_KEY is still used by the model connection “keyed”/);
    await removeConnection(s.database.db, ADMIN, "keyed");
  });
});

describe("R-conn-reference: agents name a connection", () => {
  const declare = (name: string, model: Record<string, unknown>) => ({ name, model });

  it("R-conn-reference: an agent on a connection saves, lists its provider and model, and keeps the connection from deletion", async () => {
    const db = s.database.db;
    await createConnection(db, ADMIN, { name: "shared", provider: "openai-compatible", baseUrl: s.model.url, defaultModel: "loopback-large" });
    const made = await createAgent(db, ADMIN, declare("on shared", { connection: "shared", temperature: 0.4 }), place());
    expect(made.model).toEqual({ provider: "openai-compatible", model: "loopback-large", connection: "shared" });
    const err = await refusal(removeConnection(db, ADMIN, "shared"));
    expect(err.message).toBe("shared is used by the agent “on shared”; move it to another connection first, then delete it.");
    expect((await listConnections(db)).find((c) => c.name === "shared")!.usedBy).toEqual([{ id: made.id, name: "on shared" }]);
  });

  it("R-conn-reference: a save names an unknown connection, a model off its list and a missing default, each in a sentence", async () => {
    const db = s.database.db;
    await createConnection(db, ADMIN, { name: "listed", provider: "openai-compatible", baseUrl: s.model.url, models: ["loopback-small"] });
    let n = 0;
    const problems = async (model: Record<string, unknown>) => {
      const err = await refusal(createAgent(db, ADMIN, declare(`refused ${++n}`, model), place()));
      return (err.details?.problems as Array<{ path: string; message: string }>) ?? [];
    };
    expect(await problems({ connection: "lsted", model: "loopback-small" })).toEqual([
      { path: "model.connection", message: "There is no model connection named lsted; pick one in the agent's Model section, or ask an admin to add it in Settings → Models. Did you mean listed?" },
    ]);
    expect(await problems({ connection: "listed", model: "loopback-large" })).toEqual([
      { path: "model.model", message: "The connection listed offers loopback-small, not loopback-large; pick one of them, or ask an admin to add loopback-large to the connection in Settings → Models." },
    ]);
    expect(await problems({ connection: "listed" })).toEqual([{ path: "model.model", message: "The connection listed has no default model; name the model this agent uses." }]);
    expect(await problems({ connection: "listed", model: "loopback-small", temperature: 2.5, reasoning_effort: "max" })).toEqual([
      { path: "model.temperature", message: "Write a temperature of at most 2." },
      { path: "model.reasoning_effort", message: "Write low, medium or high for the reasoning effort." },
    ]);
  });
});

describe("R-conn-adopt: inline models become a connection", () => {
  it("R-conn-adopt: creates the connection from one agent's inline model and moves every agent on the same server, each with a version", async () => {
    const db = s.database.db;
    const inline = (name: string, model: string, extra: Record<string, unknown> = {}) =>
      createAgent(db, ADMIN, { name, model: { provider: "openai-compatible", model, base_url: s.model.url, api_key: "${LOCAL_KEY}", ...extra } }, place());
    const first = await inline("inline one", "loopback-large");
    const second = await inline("inline two", "loopback-small", { max_tokens: 300 });
    const elsewhere = await createAgent(db, ADMIN, { name: "inline elsewhere", model: { provider: "openai-compatible", model: "m", base_url: "http://127.0.0.1:9/v1" } }, place());
    expect((await inlineAgents(db)).map((a) => a.agentName)).toEqual(expect.arrayContaining(["inline one", "inline two", "inline elsewhere"]));

    const adopted = await adoptInline(db, ADMIN, place(), { agentId: first.id, name: "adopted-box" });
    expect(adopted).toEqual({ connection: "adopted-box", agents: ["inline one", "inline two"] });
    const [connection] = (await listConnections(db)).filter((c) => c.name === "adopted-box");
    expect(connection).toMatchObject({ provider: "openai-compatible", baseUrl: s.model.url, apiKey: "${LOCAL_KEY}", defaultModel: "loopback-large", models: null });
    expect((await getAgent(db, first.id, place())).declaration.model).toEqual({ connection: "adopted-box", model: "loopback-large" });
    expect((await getAgent(db, second.id, place())).declaration.model).toEqual({ connection: "adopted-box", model: "loopback-small", max_tokens: 300 });
    expect((await getAgent(db, elsewhere.id, place())).declaration.model).toMatchObject({ provider: "openai-compatible", base_url: "http://127.0.0.1:9/v1" });
    const history = await agentHistory(db, second.id);
    expect(history.map((v) => v.summary)).toEqual(["Model moved to the connection adopted-box", "Created"]);
    expect((await inlineAgents(db)).map((a) => a.agentName)).not.toContain("inline one");
    const versions = await db.select().from(agentVersions).where(eq(agentVersions.agentId, second.id));
    expect(versions).toHaveLength(2);
    expect(JSON.stringify(await db.select().from(agents))).not.toContain(KEY_VALUE);
  });
});
