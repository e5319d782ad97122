// A run's secrets (R-secret-reference): each decrypted once per segment of the run and seen afresh in the next,
// each use recorded once per run however many calls and segments use it; a call by hand records its own use.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { audit } from "@/db/schema";
import { deriveKey } from "@/server/secrets/key";
import { createSecret, rotateSecret } from "@/server/secrets/store";
import { callSecrets, SegmentSecrets } from "./secrets";

const key = deriveKey(randomBytes(32), "secrets");
let dir: string;
let database: Database;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-call-secrets-"));
  database = await openDatabase({ dataDir: dir });
  await createSecret(database.db, "admin-1", { name: "API_TOKEN", value: "first-token-value" }, key);
  await createSecret(database.db, "admin-1", { name: "OTHER_TOKEN", value: "other-token-value" }, key);
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const usedBy = (run: string) =>
  database.db
    .select()
    .from(audit)
    .where(and(eq(audit.action, "secret.used"), eq(audit.actor, run)));

describe("a run's secrets", () => {
  it("decrypts a secret once per segment: a rotation is seen only after the segment ends", async () => {
    const secrets = new SegmentSecrets(database.db, { actor: "run-rotation", run: "run-rotation" }, key);
    const settings = { token: "${API_TOKEN}" };
    expect((await secrets.settle(settings, "svc__ping")).settings).toEqual({ token: "first-token-value" });
    await rotateSecret(database.db, "admin-1", { name: "API_TOKEN", value: "second-token-value" }, key);
    expect((await secrets.settle(settings, "svc__ping")).settings).toEqual({ token: "first-token-value" });
    secrets.endSegment();
    expect((await secrets.settle(settings, "svc__ping")).settings).toEqual({ token: "second-token-value" });
    // Both values reached a tool, so both stay masked.
    expect(secrets.mask("first-token-value / second-token-value")).toBe("*** / ***");
  });

  it("gives a call its values even when the segment ends while it decrypts (another call began a wait)", async () => {
    const secrets = new SegmentSecrets(database.db, { actor: "run-straddle", run: "run-straddle" }, key);
    const settling = secrets.settle({ token: "${OTHER_TOKEN}" }, "svc__ping");
    secrets.endSegment();
    expect((await settling).settings).toEqual({ token: "other-token-value" });
  });

  it("records each secret's use once per run, in the first use's words, however many calls and segments use it", async () => {
    const secrets = new SegmentSecrets(database.db, { actor: "run-once", run: "run-once" }, key);
    await Promise.all([secrets.settle({ a: "${API_TOKEN}" }, "svc__ping"), secrets.settle({ a: "${API_TOKEN}", b: "${OTHER_TOKEN}" }, "svc__pong")]);
    secrets.endSegment();
    await secrets.settle({ a: "${API_TOKEN}", b: "Bearer ${OTHER_TOKEN}" }, "svc__pong");
    const rows = await usedBy("run-once");
    expect(rows.map((r) => [r.target, r.detail]).sort()).toEqual([
      ["API_TOKEN", { via: "run", tool: "svc__ping", run: "run-once" }],
      ["OTHER_TOKEN", { via: "run", tool: "svc__pong", run: "run-once" }],
    ]);
  });

  it("records nothing again for a run rebuilt from its events (another message, a restart)", async () => {
    await new SegmentSecrets(database.db, { actor: "run-rebuilt", run: "run-rebuilt" }, key).settle({ a: "${API_TOKEN}" }, "svc__ping");
    const rebuilt = new SegmentSecrets(database.db, { actor: "run-rebuilt", run: "run-rebuilt" }, key);
    await rebuilt.settle({ a: "${API_TOKEN}", b: "${OTHER_TOKEN}" }, "svc__ping");
    expect((await usedBy("run-rebuilt")).map((r) => r.target).sort()).toEqual(["API_TOKEN", "OTHER_TOKEN"]);
  });

  it("refuses an unknown name with the store's sentence, keeps nothing of it, and records no use", async () => {
    const secrets = new SegmentSecrets(database.db, { actor: "run-unknown", run: "run-unknown" }, key);
    await expect(secrets.settle({ a: "${NO_SUCH_TOKEN}" }, "svc__ping")).rejects.toThrow("There is no secret named NO_SUCH_TOKEN");
    await createSecret(database.db, "admin-1", { name: "NO_SUCH_TOKEN", value: "made-meanwhile" }, key);
    expect((await secrets.settle({ a: "${NO_SUCH_TOKEN}" }, "svc__ping")).settings).toEqual({ a: "made-meanwhile" });
    expect((await usedBy("run-unknown")).map((r) => r.target)).toEqual(["NO_SUCH_TOKEN"]);
  });
});

describe("a call's own secrets", () => {
  it("records one secret.used row per secret for each call by hand", async () => {
    const scope = callSecrets(database.db, { actor: "dev-try", via: "try-it" }, key);
    await scope.settle({ a: "${API_TOKEN}" }, "svc__ping");
    const second = await scope.settle({ a: "${API_TOKEN}" }, "svc__ping");
    expect(second.mask(String(second.settings.a))).toBe("***");
    const rows = await usedBy("dev-try");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ target: "API_TOKEN", detail: { via: "try-it", tool: "svc__ping" } });
  });
});
