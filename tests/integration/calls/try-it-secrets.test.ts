// Try it with secrets, against the real tool host: ${NAME} settings resolved in the studio and sent in `_meta`,
// and every event leaving tryCall masked — the browser never receives a value it did not type.
import path from "node:path";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { audit } from "@/db/schema";
import { closeAll, hostFor } from "@/server/host";
import { tryCall, type TryEvent } from "@/server/calls";
import { createSecret } from "@/server/secrets/store";
import { scratch } from "../host/helpers";

const SERVICE = `"""A service whose tools leak their token on purpose, in the forms tools print tokens in."""

import base64
import urllib.parse

from quiver import Context, Secret


class Settings:
    """Credentials.

    Attributes:
        token: The service's token.
    """

    token: Secret


def forms(token: str) -> list[str]:
    raw = token.encode()
    return [
        token,
        base64.b64encode(raw).decode(),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
        "Basic " + base64.b64encode(b"admin:" + raw).decode(),
        urllib.parse.quote(token, safe=""),
        urllib.parse.quote_plus(token),
    ]


def echo(ctx: Context, settings: Settings) -> dict:
    """Say the token back, in every form."""
    for form in forms(settings.token):
        ctx.progress("using " + form)
    return {"forms": forms(settings.token), "header": "Bearer " + settings.token}


def explode(settings: Settings) -> str:
    """Fail with the token in the error."""
    raise ValueError("the service refused " + " | ".join(forms(settings.token)))
`;

const VALUE = "svc_S3cr3t/value+with space&é";
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const LEAKS = [
  VALUE,
  b64(VALUE),
  b64(VALUE).replace(/=+$/, ""),
  Buffer.from(VALUE).toString("base64url"),
  b64(`admin:${VALUE}`),
  encodeURIComponent(VALUE),
  new URLSearchParams({ t: VALUE }).toString().slice(2),
  "S3cr3t",
];

const space = scratch("secrets-try");
let tree: string;
let database: Database;

beforeAll(async () => {
  process.env.QUIVER_DATA_DIR = space.dataDir;
  process.env.QUIVER_SECRET_KEY = randomBytes(32).toString("hex");
  tree = space.tree("tree", { "service.py": SERVICE });
  hostFor(tree, { sandbox: false, dataDir: space.dataDir });
  database = await openDatabase({ dataDir: path.join(space.dir, "db") });
  await createSecret(database.db, "admin-1", { name: "SERVICE_TOKEN", value: VALUE });
});
afterAll(async () => {
  await closeAll();
  await database?.close();
  space.cleanup();
});

async function collect(name: string, settings: Record<string, unknown>): Promise<TryEvent[]> {
  const events: TryEvent[] = [];
  for await (const event of tryCall({ tree, db: database.db, actor: "dev-1", name, args: {}, settings })) events.push(event);
  return events;
}

function expectMasked(events: TryEvent[]) {
  const text = JSON.stringify(events);
  expect(text).toContain("***");
  for (const leak of LEAKS) expect(text, leak).not.toContain(leak);
  // JSON.stringify escapes nothing in these forms but the é; check the decoded text too.
  const decoded = events.map((e) => (e.type === "progress" ? e.message : e.result.content.map((c) => (c.type === "text" ? c.text : "")).join())).join("\n");
  for (const leak of LEAKS) expect(decoded, leak).not.toContain(leak);
}

describe("Try it with a secret setting", () => {
  it("masks the value and its base64 and URL-encoded forms in progress lines and the result", async () => {
    const events = await collect("service__echo", { token: "${SERVICE_TOKEN}" });
    const result = events.at(-1);
    expect(result).toMatchObject({ type: "result", result: { outcome: "ok" } });
    expect(events.filter((e) => e.type === "progress")).toHaveLength(6);
    for (const event of events.filter((e) => e.type === "progress")) expect(event).toMatchObject({ message: expect.stringMatching(/^using .*\*\*\*/) });
    expectMasked(events);
  });

  it("masks the value in an error a tool raises", async () => {
    const events = await collect("service__explode", { token: "${SERVICE_TOKEN}" });
    expect(events.at(-1)).toMatchObject({ type: "result", result: { outcome: "failed", isError: true } });
    expect(JSON.stringify(events)).toContain("ValueError: the service refused ***");
    expectMasked(events);
  });

  it("records the use as secret.used by the caller, via try-it, for the operation", async () => {
    const rows = await database.db.select().from(audit).where(eq(audit.action, "secret.used"));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]).toMatchObject({ actor: "dev-1", target: "SERVICE_TOKEN", detail: { via: "try-it", tool: "service__echo" } });
  });

  it("refuses an unknown secret name before the host is called", async () => {
    await expect(collect("service__echo", { token: "${NO_SUCH_TOKEN}" })).rejects.toThrow(
      "There is no secret named NO_SUCH_TOKEN; an admin can create it in Settings → Secrets.",
    );
  });
});
