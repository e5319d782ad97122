// Making, listing and revoking keys on PGlite (R-key-create, R-key-hash, R-key-revoke, R-key-audit): each fault a
// sentence at its field with nothing saved, the value returned once and kept nowhere, a revoke that holds from
// the very next request.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { agents, apiKeys, audit } from "@/db/schema";
import { DomainError } from "@/server/errors";
import { KeyRefused, requireKey } from "./request";
import { createKey, listKeys, revokeKey, type NewKey, type Problem } from "./store";
import { hashOf } from "./value";

const ADMIN = "user-admin";
let dir: string;
let database: Database;
let agentId: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-keys-store-"));
  database = await openDatabase({ dataDir: dir });
  const [agent] = await database.db
    .insert(agents)
    .values({ name: "Helpdesk", declaration: { name: "Helpdesk" }, createdBy: ADMIN, updatedBy: ADMIN })
    .returning({ id: agents.id });
  agentId = agent!.id;
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function problems(input: NewKey): Promise<Problem[]> {
  const error = await createKey(database.db, ADMIN, input).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).reason).toBe("INVALID_API_KEY");
  expect((error as DomainError).message).toMatch(/^The key was not made: /);
  return (error as DomainError).details!.problems as Problem[];
}

const count = async () => (await database.db.select().from(apiKeys)).length;

describe("createKey", () => {
  it("returns the value once, keeps only its hash, and lists the key by prefix with its agents' names", async () => {
    const { key, value } = await createKey(database.db, ADMIN, { name: "open-webui", agents: [agentId], scopes: ["read", "run"] });
    expect(value.startsWith(key.prefix)).toBe(true);
    const [stored] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(stored!.hash).toBe(hashOf(value));
    expect(JSON.stringify(stored)).not.toContain(value.slice(11));
    const listed = (await listKeys(database.db)).find((k) => k.id === key.id)!;
    expect(listed).toMatchObject({ name: "open-webui", agents: [agentId], agentNames: ["Helpdesk"], scopes: ["run", "read"], waitLimitS: 300, ratePerMinute: 60, expiresAt: null, revokedAt: null });
    expect(Object.keys(listed)).not.toContain("hash");
    expect(JSON.stringify(await listKeys(database.db))).not.toContain(value);
    const [row] = await database.db.select().from(audit).where(eq(audit.action, "key.created"));
    expect(row).toMatchObject({ actor: ADMIN, target: "open-webui", detail: { keyId: key.id, prefix: key.prefix } });
    expect(JSON.stringify(row)).not.toContain(value);
  });

  it("refuses every fault at its field at once, and saves nothing", async () => {
    const before = await count();
    const found = await problems({ name: " ", agents: [], scopes: [], waitLimitS: 0, ratePerMinute: 0, expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(found.map((p) => p.path)).toEqual(["name", "agents", "scopes", "waitLimitS", "ratePerMinute", "expiresAt"]);
    expect(found[0]!.message).toMatch(/^Give the key a name/);
    expect(found[1]!.message).toMatch(/^Pick at least one agent/);
    expect(found[2]!.message).toMatch(/^Tick at least one thing the key may do/);
    expect(found[5]!.message).toMatch(/^The expiry is in the past/);
    expect(await count()).toBe(before);
  });

  it("refuses a name taken case aside, one too long, and agents that do not exist", async () => {
    await createKey(database.db, ADMIN, { name: "ci-bot", agents: "all", scopes: ["read"] });
    expect(await problems({ name: "CI-Bot", agents: "all", scopes: ["read"] })).toEqual([
      { path: "name", message: "A key named “CI-Bot” exists already (names are unique, case aside); pick another name." },
    ]);
    expect((await problems({ name: "x".repeat(61), agents: "all", scopes: ["read"] }))[0]!.message).toMatch(/at most 60 characters; this one has 61/);
    expect(await problems({ name: "gone", agents: [agentId, "2f6f5f58-0000-4000-8000-000000000000", "not-an-id"], scopes: ["run"] })).toEqual([
      { path: "agents", message: "2 agents picked no longer exist; pick again from the list." },
    ]);
    expect((await problems({ name: "when", agents: "all", scopes: ["run"], expiresAt: "tomorrow" }))[0]!.path).toBe("expiresAt");
  });

  it("keeps a future expiry, a wait limit and a rate", async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const { key } = await createKey(database.db, ADMIN, { name: "nightly", agents: "all", scopes: ["decide"], waitLimitS: 60, ratePerMinute: 600, expiresAt });
    expect(key).toMatchObject({ agents: "all", agentNames: [], scopes: ["decide"], waitLimitS: 60, ratePerMinute: 600 });
    expect(key.expiresAt?.toISOString()).toBe(expiresAt);
  });
});

describe("a metrics key", () => {
  it("R-metrics-key: refuses metrics beside another scope at scopes, and saves nothing", async () => {
    const before = await count();
    const found = await problems({ name: "scraper-and-more", agents: "all", scopes: ["metrics", "read"] });
    expect(found).toEqual([{ path: "scopes", message: expect.stringMatching(/^A metrics key reads the studio's metrics and nothing else .*\.$/) }]);
    expect(await count()).toBe(before);
  });

  it("R-metrics-key: keeps a metrics key with no agents whatever was sent, so it opens only what asks for metrics", async () => {
    const { key, value } = await createKey(database.db, ADMIN, { name: "prometheus", agents: "all", scopes: ["metrics"] });
    expect(key).toMatchObject({ agents: [], agentNames: [], scopes: ["metrics"] });
    const request = () => new Request("http://127.0.0.1/api/metrics", { headers: { authorization: `Bearer ${value}` } });
    await expect(requireKey(database.db, request(), "metrics")).resolves.toMatchObject({ id: key.id, agents: [] });
    for (const scope of ["run", "read", "decide"] as const) {
      const refused = await requireKey(database.db, request(), scope).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(KeyRefused);
      expect((refused as KeyRefused).code).toBe("KEY_SCOPE");
    }
    const withAgent = await requireKey(database.db, request(), "metrics", agentId).catch((e: unknown) => e);
    expect((withAgent as KeyRefused).code).toBe("KEY_AGENT");
  });
});

describe("revokeKey", () => {
  it("refuses the key from its next request on, lists it after the live ones, and audits it once", async () => {
    const { key, value } = await createKey(database.db, ADMIN, { name: "a-leaked-one", agents: "all", scopes: ["run"] });
    const request = new Request("http://127.0.0.1/api/v1/models", { headers: { authorization: `Bearer ${value}` } });
    await expect(requireKey(database.db, request, "run")).resolves.toMatchObject({ id: key.id });
    const revoked = await revokeKey(database.db, ADMIN, key.id);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    const refused = await requireKey(database.db, request, "run").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(KeyRefused);
    expect((refused as KeyRefused).code).toBe("KEY_REVOKED");
    await revokeKey(database.db, ADMIN, key.id);
    const rows = await database.db.select().from(audit).where(like(audit.action, "key.revoked"));
    expect(rows.filter((r) => r.target === "a-leaked-one")).toHaveLength(1);
    const listed = await listKeys(database.db);
    expect(listed.at(-1)!.id).toBe(key.id);
  });

  it("says there is no such key for an id it does not know", async () => {
    const error = await revokeKey(database.db, ADMIN, "2f6f5f58-0000-4000-8000-0000000000ff").catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "NOT_FOUND", reason: "NO_SUCH_KEY" });
  });
});
