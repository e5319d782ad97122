// A settings form's check of a picked secret, against the real tool host: whatever the file's check_secret answers,
// returns, raises or makes the host fail with comes back masked in every form (R-secret-mask), and each check is an
// audit row naming who checked which secret with which file and field (R-secret-check-audit).
import path from "node:path";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { audit } from "@/db/schema";
import { checkBinding } from "@/server/calls";
import { closeAll, hostFor } from "@/server/host";
import { createSecret } from "@/server/secrets/store";
import { scratch } from "../host/helpers";

const SERVICE = `"""A service whose check_secret gives its value away on purpose, in hex, JSON and base64."""

import base64
import json

from quiver import Secret


class Settings:
    """Credentials.

    Attributes:
        returns: A token the check answers about.
        raises: A token the check raises about.
        breaks: A token whose check answer the host cannot even turn into text.
        region: Not a secret.
    """

    returns: Secret
    raises: Secret
    breaks: Secret
    region: str = "eu"


def forms(value: str) -> str:
    raw = value.encode()
    return " | ".join([raw.hex(), raw.hex().upper(), json.dumps(value), json.dumps(value, ensure_ascii=False),
                       base64.b64encode(raw).decode(), json.dumps({"token": value})])


class Unprintable:
    def __init__(self, value):
        self.value = value

    def __str__(self):
        raise ValueError("cannot print " + forms(self.value))


def check_secret(name, value):
    if name == "returns":
        return "not usable: " + forms(value)
    if name == "raises":
        raise PermissionError("the service refused " + forms(value))
    return Unprintable(str(value))


def ping(settings: Settings) -> str:
    """Answer."""
    return "pong"
`;

const VALUE = 'chk_"S3cr3t"\\path/é😀';
const raw = Buffer.from(VALUE, "utf8");
/** Every form the file gives away, and the part of the value a half-masked form would still show. */
const LEAKS = [VALUE, raw.toString("hex"), raw.toString("hex").toUpperCase(), JSON.stringify(VALUE).slice(1, -1), raw.toString("base64"), "S3cr3t"];
const MASKED = 'not usable: *** | *** | "***" | "***" | *** | {"token": "***"}';

const space = scratch("check-secret");
let tree: string;
let database: Database;

beforeAll(async () => {
  process.env.QUIVER_DATA_DIR = space.dataDir;
  process.env.QUIVER_SECRET_KEY = randomBytes(32).toString("hex");
  tree = space.tree("tree", { "service.py": SERVICE });
  hostFor(tree, { sandbox: false, dataDir: space.dataDir });
  database = await openDatabase({ dataDir: path.join(space.dir, "db") });
  await createSecret(database.db, "admin-1", { name: "LEAKY_TOKEN", value: VALUE });
});
afterAll(async () => {
  await closeAll();
  await database?.close();
  space.cleanup();
});

const check = (field: string, actor = "builder-1") => checkBinding(database.db, tree, { path: "service.py", field, name: "LEAKY_TOKEN" }, actor);

function expectNoLeak(text: string) {
  for (const leak of LEAKS) expect(text, leak).not.toContain(leak);
}

describe("checking a secret against a file", () => {
  it("masks a sentence that gives the value away in hex, JSON and base64", async () => {
    const answer = await check("returns");
    expect(answer).toEqual({ ok: false, message: MASKED });
  });

  it("masks an exception check_secret raises with the value in it", async () => {
    const answer = await check("raises");
    expect(answer.ok).toBe(false);
    expect(answer.message).toBe(MASKED.replace("not usable: ", "PermissionError: the service refused "));
  });

  it("masks the host's own error when it cannot turn the answer into text", async () => {
    const failed = await check("breaks").then(
      () => null,
      (err: Error) => err,
    );
    expect(failed?.message).toMatch(/ValueError: cannot print \*\*\* \| \*\*\*/);
    expectNoLeak(failed!.message);
    expectNoLeak(JSON.stringify(failed));
  });

  it("writes a secret.checked audit row naming who checked which secret with which file and field", async () => {
    await check("returns", "builder-audited");
    const rows = await database.db
      .select()
      .from(audit)
      .where(and(eq(audit.action, "secret.checked"), eq(audit.actor, "builder-audited")));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: "builder-audited", target: "LEAKY_TOKEN", detail: { file: "service.py", field: "returns" } });
    expectNoLeak(JSON.stringify(await database.db.select().from(audit)));
  });

  it("refuses a field that is not a Secret setting of the file, and still records the attempt", async () => {
    await expect(check("region", "builder-region")).rejects.toThrow(/has no Secret setting `region`/);
    const rows = await database.db
      .select()
      .from(audit)
      .where(and(eq(audit.action, "secret.checked"), eq(audit.actor, "builder-region")));
    expect(rows.map((row) => row.detail)).toEqual([{ file: "service.py", field: "region" }]);
  });
});
