// ${NAME} references (R-secret-reference): resolved at call time, inside the server,
// each use marked and audited; an unknown name refused before any call.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { audit, secrets } from "@/db/schema";
import { DomainError } from "@/server/errors";
import { deriveKey } from "./key";
import { resolveSettings } from "./resolve";
import { createSecret } from "./store";

const key = deriveKey(randomBytes(32), "secrets");
const use = { actor: "user-1", via: "try-it" as const, tool: "tickets__open" };
let dir: string;
let database: Database;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-resolve-"));
  database = await openDatabase({ dataDir: dir });
  await createSecret(database.db, "admin-1", { name: "TICKETS_TOKEN", value: "tkt_0123456789abcdefghij" }, key);
  await createSecret(database.db, "admin-1", { name: "OTHER_KEY", value: "other-value" }, key);
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("resolving ${NAME} references", () => {
  it("resolves a value that is exactly ${NAME}", async () => {
    const resolved = await resolveSettings(database.db, { token: "${TICKETS_TOKEN}", project: "OPS" }, use, key);
    expect(resolved.settings).toEqual({ token: "tkt_0123456789abcdefghij", project: "OPS" });
    expect(resolved.values).toEqual(["tkt_0123456789abcdefghij"]);
  });

  it("resolves ${NAME} inside a longer string and inside nested settings", async () => {
    const resolved = await resolveSettings(
      database.db,
      { header: "Bearer ${TICKETS_TOKEN}", nested: { pair: ["${OTHER_KEY}:${TICKETS_TOKEN}"] }, literal: "${lower} and $TICKETS_TOKEN" },
      use,
      key,
    );
    expect(resolved.settings).toEqual({
      header: "Bearer tkt_0123456789abcdefghij",
      nested: { pair: ["other-value:tkt_0123456789abcdefghij"] },
      literal: "${lower} and $TICKETS_TOKEN",
    });
    expect(resolved.values.sort()).toEqual(["other-value", "tkt_0123456789abcdefghij"]);
  });

  it("leaves settings without references untouched and reads nothing", async () => {
    const settings = { project: "OPS" };
    expect(await resolveSettings(database.db, settings, use, key)).toEqual({ settings, values: [] });
  });

  it("refuses an unknown name with a sentence, before anything is marked used", async () => {
    const before = await database.db.select().from(audit).where(eq(audit.action, "secret.used"));
    const attempt = resolveSettings(database.db, { token: "${NO_SUCH_TOKEN}", other: "${TICKETS_TOKEN}" }, use, key);
    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    await expect(attempt).rejects.toThrow("There is no secret named NO_SUCH_TOKEN; an admin can create it in Settings → Secrets.");
    const after = await database.db.select().from(audit).where(eq(audit.action, "secret.used"));
    expect(after).toHaveLength(before.length);
  });

  it("marks lastUsedAt and writes a secret.used audit row per secret, without the value", async () => {
    const [before] = await database.db.select().from(secrets).where(eq(secrets.name, "OTHER_KEY"));
    expect(before!.lastUsedAt === null || before!.lastUsedAt instanceof Date).toBe(true);
    const started = new Date();
    await resolveSettings(database.db, { a: "${OTHER_KEY}", b: "again ${OTHER_KEY}" }, { actor: "user-2", via: "run", tool: "svc__ping" }, key);
    const [after] = await database.db.select().from(secrets).where(eq(secrets.name, "OTHER_KEY"));
    expect(after!.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(started.getTime() - 1000);
    const rows = await database.db
      .select()
      .from(audit)
      .where(and(eq(audit.action, "secret.used"), eq(audit.actor, "user-2")));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ target: "OTHER_KEY", detail: { via: "run", tool: "svc__ping" } });
    expect(JSON.stringify(rows)).not.toContain("other-value");
  });

  it("refuses, with a sentence, a secret the key cannot decrypt", async () => {
    const other = deriveKey(randomBytes(32), "secrets");
    await expect(resolveSettings(database.db, { t: "${TICKETS_TOKEN}" }, use, other)).rejects.toThrow(
      /TICKETS_TOKEN cannot be decrypted with this studio's key/,
    );
  });
});
