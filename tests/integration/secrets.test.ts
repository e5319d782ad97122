// The secret store on PGlite, through its domain functions and through tRPC with a fake signed-in user:
// write-only (no API returns a value or a ciphertext), audited, delete refused while referenced, the studio key
// checked across restarts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { audit, secrets, toolExamples, type Role } from "@/db/schema";
import { secretReferenceSources } from "@/server/agents/references";
import { recordAudit } from "@/server/audit/record";
import { closeDatabase, getDb } from "@/server/db";
import { closeAll, hostFor } from "@/server/host";
import { checkKey, deriveKey, loadKey, keyFilePath, prepareKey } from "@/server/secrets/key";
import { makeMasker } from "@/server/secrets/mask";
import { resolveSecrets } from "@/server/secrets/resolve";
import { createSecret, deleteSecret, listSecrets, rotateSecret, secretNames } from "@/server/secrets/store";
import { createCallerFactory } from "@/server/trpc/init";
import { secretsRouter } from "@/server/trpc/routers/secrets";

// The tRPC procedures reach the studio's own database, key and tree through env(): point them at scratch ones.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-secrets-"));
const studioKeyHex = randomBytes(32).toString("hex");
const tree = path.join(scratch, "tools");
fs.mkdirSync(tree);
fs.writeFileSync(
  path.join(tree, "tickets.py"),
  `"""Tickets."""

from quiver import Secret

CREDENTIAL_HELP = "A token starts with tkt_."


class Settings:
    """Credentials.

    Attributes:
        token: The tracker's token.
    """

    token: Secret


def check_secret(name, value):
    if not value.startswith("tkt_"):
        return f"{value} is not a tracker token: a token starts with tkt_"


def ping(settings: Settings) -> str:
    """Answer."""
    return "pong"
`,
);
process.env.QUIVER_DATA_DIR = path.join(scratch, "studio");
process.env.QUIVER_SECRET_KEY = studioKeyHex;
process.env.QUIVER_TOOLS_DIR = tree;

const key = deriveKey(randomBytes(32), "secrets");
const b64 = (text: string) => Buffer.from(text).toString("base64");
const made: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-secrets-db-"));
  made.push(dir);
  return dir;
}

afterAll(async () => {
  await closeAll();
  await closeDatabase();
  for (const dir of [scratch, ...made]) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the secret store", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: dataDir() });
  });
  afterAll(() => database.close());

  it("creates a secret and keeps only its ciphertext", async () => {
    const made = await createSecret(database.db, "admin-1", { name: "TICKETS_TOKEN", value: "tkt_created_value_123", description: " The tracker " }, key);
    expect(made).toMatchObject({ name: "TICKETS_TOKEN", description: "The tracker", createdBy: "admin-1", updatedBy: "admin-1", lastUsedAt: null });
    const [row] = await database.db.select().from(secrets).where(eq(secrets.name, "TICKETS_TOKEN"));
    expect(row!.ciphertext).toMatch(/^v1:/);
    expect(row!.ciphertext).not.toContain("tkt_created_value_123");
  });

  it("refuses a name that is not capitals, digits and underscores starting with a letter, or longer than 64", async () => {
    for (const name of ["tickets_token", "1TOKEN", "_TOKEN", "A-B", "", "A".repeat(65)]) {
      await expect(createSecret(database.db, "admin-1", { name, value: "v" }, key), name).rejects.toMatchObject({ reason: "BAD_NAME" });
    }
    await createSecret(database.db, "admin-1", { name: `A${"_".repeat(63)}`, value: "v" }, key);
  });

  it("refuses an empty value and a name that exists, with sentences", async () => {
    await expect(createSecret(database.db, "admin-1", { name: "EMPTY_ONE", value: "" }, key)).rejects.toThrow(/needs a value/);
    await expect(createSecret(database.db, "admin-1", { name: "TICKETS_TOKEN", value: "x" }, key)).rejects.toThrow(
      "A secret named TICKETS_TOKEN already exists; rotate it to change its value.",
    );
  });

  it("rotates a value: the next use reads the new one", async () => {
    await createSecret(database.db, "admin-1", { name: "ROTATED", value: "first-value" }, key);
    const rotated = await rotateSecret(database.db, "admin-2", { name: "ROTATED", value: "second-value" }, key);
    expect(rotated).toMatchObject({ name: "ROTATED", createdBy: "admin-1", updatedBy: "admin-2" });
    const values = await resolveSecrets(database.db, ["ROTATED"], { actor: "u", via: "run", tool: "t" }, key);
    expect(values.get("ROTATED")).toBe("second-value");
    await expect(rotateSecret(database.db, "admin-2", { name: "NOT_THERE", value: "v" }, key)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  it("delete refused while referenced, naming the reference", async () => {
    await createSecret(database.db, "admin-1", { name: "IN_USE", value: "in-use-value" }, key);
    // INXUSE differs from IN_USE only where LIKE reads `_` as any character: it must not count as referenced.
    await createSecret(database.db, "admin-1", { name: "INXUSE", value: "lookalike" }, key);
    const [example] = await database.db
      .insert(toolExamples)
      .values({ path: "tickets.py", tool: "tickets__open", title: "open one", args: {}, settings: { token: "Bearer ${IN_USE}" }, createdBy: "dev-1" })
      .returning();
    const refused = deleteSecret(database.db, "admin-1", "IN_USE", secretReferenceSources);
    await expect(refused).rejects.toMatchObject({ kind: "CONFLICT", reason: "SECRET_IN_USE" });
    await expect(refused).rejects.toThrow(/IN_USE is still used by the Try it example “open one” of tickets\.py \(tickets__open\)/);
    expect((await listSecrets(database.db, secretReferenceSources)).find((s) => s.name === "IN_USE")!.references).toEqual([
      expect.objectContaining({ kind: "tool-example", id: example!.id, href: "/tools/tickets.py" }),
    ]);
    expect(await deleteSecret(database.db, "admin-1", "INXUSE", secretReferenceSources)).toEqual({ name: "INXUSE" });

    await database.db.delete(toolExamples).where(eq(toolExamples.id, example!.id));
    expect(await deleteSecret(database.db, "admin-1", "IN_USE", secretReferenceSources)).toEqual({ name: "IN_USE" });
    await expect(deleteSecret(database.db, "admin-1", "IN_USE", secretReferenceSources)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  it("writes secret.created, secret.rotated and secret.deleted audit rows naming the secret, never the value", async () => {
    const rows = await database.db.select().from(audit).where(like(audit.action, "secret.%"));
    const actions = rows.map((row) => `${row.action} ${row.target} ${row.actor}`);
    expect(actions).toEqual(
      expect.arrayContaining(["secret.created TICKETS_TOKEN admin-1", "secret.rotated ROTATED admin-2", "secret.deleted IN_USE admin-1"]),
    );
    const text = JSON.stringify(rows);
    for (const value of ["tkt_created_value_123", "first-value", "second-value", "in-use-value"]) expect(text).not.toContain(value);
  });

  it("masks an audit row written about a call that used a secret", async () => {
    const value = "tkt_in_an_audit_row_0123";
    await recordAudit(
      database.db,
      { actor: "dev-1", action: "tool.executed", target: `tickets__open ${value}`, detail: { args: { auth: `Bearer ${value}` }, [value]: [b64(value)] } },
      { mask: makeMasker([value]) },
    );
    const [row] = await database.db.select().from(audit).where(eq(audit.action, "tool.executed"));
    expect(row).toMatchObject({ target: "tickets__open ***", detail: { args: { auth: "Bearer ***" }, "***": ["***"] } });
  });

  it("lists names and descriptions for pickers, and nothing else", async () => {
    const names = await secretNames(database.db);
    expect(names.find((s) => s.name === "TICKETS_TOKEN")).toEqual({ name: "TICKETS_TOKEN", description: "The tracker" });
  });
});

describe("the secrets API (tRPC)", () => {
  const caller = (role: Role | null) =>
    createCallerFactory(secretsRouter)({
      headers: new Headers(),
      user: role ? { id: `${role}-1`, email: `${role}@example.test`, name: role, role } : null,
    });
  const admin = caller("admin");
  const VALUE = "tkt_api_value_0123456789";
  const ALLOWED = ["name", "description", "createdBy", "updatedBy", "createdAt", "updatedAt", "lastUsedAt", "updatedByName", "references"];

  beforeAll(async () => {
    hostFor(tree, { sandbox: false });
    await getDb();
  });

  it("no function of the API returns a value (nor its ciphertext)", async () => {
    const answers: unknown[] = [];
    answers.push(await admin.create({ name: "API_TOKEN", value: VALUE, description: "for the API test" }));
    answers.push(await admin.rotate({ name: "API_TOKEN", value: `${VALUE}_2` }));
    answers.push(await admin.list());
    answers.push(await caller("builder").names());
    answers.push(await caller("developer").checkBinding({ path: "tickets.py", field: "token", name: "API_TOKEN" }));
    answers.push(await admin.create({ name: "DOOMED", value: "doomed-value-1234" }));
    answers.push(await admin.remove({ name: "DOOMED" }));
    const [row] = await (await getDb()).select().from(secrets).where(eq(secrets.name, "API_TOKEN"));
    const text = JSON.stringify(answers);
    for (const secret of [VALUE, `${VALUE}_2`, "doomed-value-1234", row!.ciphertext, row!.ciphertext.split(":")[3]!]) {
      expect(text).not.toContain(secret);
    }
    for (const listed of answers[2] as Record<string, unknown>[]) expect(Object.keys(listed).sort()).toEqual([...ALLOWED].sort());
    for (const named of answers[3] as Record<string, unknown>[]) expect(Object.keys(named).sort()).toEqual(["description", "name"]);
  });

  it("lets only admins list, create, rotate and delete; builders read names and check bindings", async () => {
    for (const role of ["builder", "developer"] as const) {
      await expect(caller(role).list()).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(caller(role).create({ name: "NOPE", value: "v" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(caller(role).rotate({ name: "API_TOKEN", value: "v" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(caller(role).remove({ name: "API_TOKEN" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    await expect(caller(null).names()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(caller(null).checkBinding({ path: "tickets.py", field: "token", name: "API_TOKEN" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect(await caller("builder").checkBinding({ path: "tickets.py", field: "token", name: "API_TOKEN" })).toEqual({ ok: true, message: null });
  });

  it("answers a domain refusal with its code and sentence", async () => {
    await expect(admin.create({ name: "bad name", value: "v" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/is not a secret name/) });
    await expect(admin.remove({ name: "NOT_THERE" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("checks a binding with the file's check_secret and masks the value in its sentence", async () => {
    await admin.create({ name: "WRONG_TOKEN", value: "wrong-token-value" });
    const dev = caller("developer");
    expect(await dev.checkBinding({ path: "tickets.py", field: "token", name: "API_TOKEN" })).toEqual({ ok: true, message: null });
    const bad = await dev.checkBinding({ path: "tickets.py", field: "token", name: "WRONG_TOKEN" });
    expect(bad).toEqual({ ok: false, message: "*** is not a tracker token: a token starts with tkt_" });
    await expect(dev.checkBinding({ path: "tickets.py", field: "token", name: "NO_SUCH" })).rejects.toThrow(
      "There is no secret named NO_SUCH; an admin can create it in Settings → Secrets.",
    );
    await expect(dev.checkBinding({ path: "tickets.py", field: "missing", name: "API_TOKEN" })).rejects.toThrow(/has no Secret setting `missing`/);
  });

  it("records a builder's check as secret.checked, naming who checked which secret with which file and field", async () => {
    await caller("builder").checkBinding({ path: "tickets.py", field: "token", name: "WRONG_TOKEN" });
    const rows = await (await getDb())
      .select()
      .from(audit)
      .where(and(eq(audit.action, "secret.checked"), eq(audit.actor, "builder-1"), eq(audit.target, "WRONG_TOKEN")));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.detail).toEqual({ file: "tickets.py", field: "token" });
  });
});

describe("the studio key", () => {
  async function firstStart() {
    const dir = dataDir();
    const database = await openDatabase({ dataDir: dir });
    const loaded = loadKey({ secretKey: undefined, dataDir: dir });
    expect(loaded.source).toBe("new file");
    expect(fs.statSync(keyFilePath(dir)).mode & 0o777).toBe(0o600);
    await checkKey(database.db, loaded.key, loaded.source);
    await createSecret(database.db, "admin-1", { name: "KEPT", value: "kept-value" }, deriveKey(loaded.key, "secrets"));
    await database.close();
    return dir;
  }

  it("reads the secrets again after a restart with the same key", async () => {
    const dir = await firstStart();
    const database = await openDatabase({ dataDir: dir });
    const loaded = loadKey({ secretKey: undefined, dataDir: dir });
    expect(loaded.source).toBe("file");
    await checkKey(database.db, loaded.key, loaded.source);
    const values = await resolveSecrets(database.db, ["KEPT"], { actor: "u", via: "run", tool: "t" }, deriveKey(loaded.key, "secrets"));
    expect(values.get("KEPT")).toBe("kept-value");
    await database.close();
  });

  it("refuses to start with a different key, with the sentence saying what to do", async () => {
    const dir = await firstStart();
    const database = await openDatabase({ dataDir: dir });
    const other = loadKey({ secretKey: randomBytes(32).toString("hex"), dataDir: dir });
    await expect(checkKey(database.db, other.key, other.source)).rejects.toThrow(
      "QUIVER_SECRET_KEY is not the key this studio's secrets were encrypted with: set it to the original key. The secrets are kept, unread, until then.",
    );
    await database.close();
  });

  it("refuses to start when the key file is missing and secrets exist (never a silent reset)", async () => {
    const dir = await firstStart();
    fs.rmSync(keyFilePath(dir));
    const database = await openDatabase({ dataDir: dir });
    await expect(prepareKey(database.db, { secretKey: undefined, dataDir: dir })).rejects.toThrow(
      /secret\.key is missing, and this studio's secrets were encrypted with its key/,
    );
    // No new key was made in its place, so restoring the old file is all it takes.
    expect(fs.existsSync(keyFilePath(dir))).toBe(false);
    expect(await database.db.select({ name: secrets.name }).from(secrets)).toEqual([{ name: "KEPT" }]);
    await database.close();
  });
});
