// Settings → API keys through tRPC on the studio's PGlite, as an admin would use it: the value comes back from
// create only, the list carries prefixes and never a value or a hash, text is checked at the edge, and the key made
// there is the one a request is let in with, until it is revoked (R-key-create, R-key-hash, R-key-revoke).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-api-keys-"));
fs.mkdirSync(path.join(scratch, "tools"));
// Before anything reads the configuration: this test's own data folder.
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = path.join(scratch, "tools");
process.env.DATABASE_URL = "";

const ADMIN = { id: "user-admin", email: "admin@quiver.test", name: "Ada", role: "admin" as const };

async function api() {
  const { createCallerFactory } = await import("@/server/trpc/init");
  const { apiKeysRouter } = await import("@/server/trpc/routers/api-keys");
  return createCallerFactory(apiKeysRouter)({ headers: new Headers(), user: ADMIN });
}

async function studioDb() {
  const { getDb } = await import("@/server/db");
  return getDb();
}

afterAll(async () => {
  const { closeDatabase } = await import("@/server/db");
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("Settings → API keys over tRPC", () => {
  it("makes a key whose value is shown once and lets a request in, until it is revoked", async () => {
    const { requireKey, KeyRefused } = await import("@/server/keys/request");
    const keys = await api();
    const made = await keys.create({ name: "ci-bot", agents: "all", scopes: ["run", "read"], expiresAt: null });
    expect(made.value).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
    expect(made.key).toMatchObject({ name: "ci-bot", prefix: made.value.slice(0, 11), createdByName: null, lastUsedAt: null });

    const listed = await keys.list();
    expect(listed.map((k) => k.prefix)).toEqual([made.key.prefix]);
    const carried = JSON.stringify(listed);
    expect(carried).not.toContain(made.value);
    expect(carried).not.toContain('"hash"');

    const request = new Request("http://127.0.0.1/api/v1/models", { headers: { authorization: `Bearer ${made.value}` } });
    await expect(requireKey(await studioDb(), request, "read")).resolves.toMatchObject({ name: "ci-bot", scopes: ["run", "read"] });
    expect((await keys.list())[0]!.lastUsedAt).toBeInstanceOf(Date);

    await keys.revoke({ id: made.key.id });
    const refused = await requireKey(await studioDb(), request, "read").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(KeyRefused);
    expect((refused as InstanceType<typeof KeyRefused>).status).toBe(401);
    expect((await keys.list())[0]!.revokedAt).toBeInstanceOf(Date);
  });

  it("names the key in Settings → Audit where a program acted with it (R-key-audit)", async () => {
    const { requireKey, recordKeyUse } = await import("@/server/keys/request");
    const { listAudit } = await import("@/server/audit/list");
    const made = await (await api()).create({ name: "audit-bot", agents: "all", scopes: ["run"], expiresAt: null });
    const request = new Request("http://127.0.0.1/api/v1/models", { headers: { authorization: `Bearer ${made.value}` } });
    const key = await requireKey(await studioDb(), request, "run");
    await recordKeyUse(await studioDb(), key, { action: "chat.completions" });
    const rows = (await listAudit(await studioDb(), { actor: key.who.id, limit: 10 })).filter((row) => row.actor === key.who.id);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.actorEmail === "API key audit-bot")).toBe(true);
  });

  it("answers a fault with its sentence and the problems by field, as the dialog places them", async () => {
    const keys = await api();
    const error = await keys.create({ name: "", agents: [], scopes: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    expect((error as TRPCError).message).toBe("The key was not made: Give the key a name that says who uses it, like ci-bot or open-webui. (and 2 more)");
    const problems = ((error as TRPCError).cause as unknown as { details: { problems: { path: string }[] } }).details.problems;
    expect(problems.map((p) => p.path)).toEqual(["name", "agents", "scopes"]);
  });

  it("refuses a name holding a NUL at the edge, naming the field (R-input-text)", async () => {
    const keys = await api();
    const error = await keys.create({ name: "ci\u0000bot", agents: "all", scopes: ["run"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    expect(JSON.stringify((error as TRPCError).cause)).toMatch(/name/);
  });
});
