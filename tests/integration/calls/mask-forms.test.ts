// A tree tool that gives its token away in hex and escaped inside JSON, against the real tool host and the loopback
// model: Try it and a run both mask every form in progress lines, results and errors, and nothing the model is sent,
// the run stores or Try it streams holds any part of the value (R-secret-mask).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tryCall, type TryEvent } from "@/server/calls";
import { resultText } from "@/server/host";
import { createSecret } from "@/server/secrets/store";
import { call, text } from "@/tests/support/loopback-model";
import { ANN, dataOf, studio, type Studio } from "../runtime/setup";

const SERVICE = `"""A service whose tools say their token back on purpose, in hex and inside JSON."""

import json

from quiver import Context, Secret


class Settings:
    """Credentials.

    Attributes:
        token: The service's token.
    """

    token: Secret


def forms(token: str) -> list[str]:
    raw = token.encode()
    return [raw.hex(), raw.hex().upper(), json.dumps(token)[1:-1], json.dumps(token, ensure_ascii=False)[1:-1]]


def echo(ctx: Context, settings: Settings) -> dict:
    """Say the token back in hex and in JSON; the host writes this dict as JSON, escaping each form once more."""
    for form in forms(settings.token):
        ctx.progress("using " + form)
    return {"forms": forms(settings.token), "body": json.dumps({"auth": settings.token})}


def explode(settings: Settings) -> str:
    """Fail with the token in the error."""
    raise ValueError("the service refused " + " | ".join(forms(settings.token)))
`;

const TOKEN = 'svc_"S3cr3t"\\path/é😀';
const raw = Buffer.from(TOKEN, "utf8");
const LEAKS = [TOKEN, raw.toString("hex"), raw.toString("hex").toUpperCase(), JSON.stringify(TOKEN).slice(1, -1), "S3cr3t"];
const settings = { token: "${SERVICE_TOKEN}" };
let s: Studio;

beforeAll(async () => {
  s = await studio("mask-forms", { "service.py": SERVICE });
  await createSecret(s.database.db, "admin", { name: "SERVICE_TOKEN", value: TOKEN });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

async function tried(name: string): Promise<TryEvent[]> {
  const events: TryEvent[] = [];
  for await (const event of tryCall({ tree: s.tree, db: s.database.db, actor: ANN.id, name, args: {}, settings })) events.push(event);
  return events;
}

async function ran(name: string) {
  const agent = await s.agent({ tools: [{ entry: "tools/service.py", settings }] });
  s.model.reply(call(name), text("done"));
  const events = await s.events(await s.run(agent));
  return { events, sent: s.model.requests.map((request) => request.raw).join("\n") };
}

function expectNoLeak(what: string, shown: string) {
  for (const leak of LEAKS) expect(shown, `${what}: ${leak}`).not.toContain(leak);
}

const ECHOED = { forms: ["***", "***", "***", "***"], body: '{"auth": "***"}' };
const REFUSED = "ValueError: the service refused *** | *** | *** | ***";

describe("masking a token's hex and JSON-escaped forms", () => {
  it("through Try it: in progress lines and the result", async () => {
    const events = await tried("service__echo");
    const result = events.at(-1)!;
    if (result.type !== "result") throw new Error("Try it gave no result");
    expect(JSON.parse(resultText(result.result))).toEqual(ECHOED);
    expect(events.filter((e) => e.type === "progress").map((e) => e.message)).toEqual(Array(4).fill("using ***"));
    expectNoLeak("Try it", JSON.stringify(events));
  });

  it("through Try it: in an error the tool raises", async () => {
    const events = await tried("service__explode");
    const result = events.at(-1)!;
    if (result.type !== "result") throw new Error("Try it gave no result");
    expect(resultText(result.result)).toContain(REFUSED);
    expectNoLeak("Try it", JSON.stringify(events));
  });

  it("through a run: in what the model reads, the stored events and the progress lines", async () => {
    const { events, sent } = await ran("service__echo");
    expect(JSON.parse(dataOf(events, "tool_result")[0]!.text)).toEqual(ECHOED);
    expect(dataOf(events, "progress").map((p) => p.message)).toEqual(Array(4).fill("using ***"));
    expectNoLeak("the run's events", JSON.stringify(events));
    expectNoLeak("the model's requests", sent);
  });

  it("through a run: in an error the tool raises", async () => {
    const { events, sent } = await ran("service__explode");
    expect(dataOf(events, "tool_result")[0]!.text).toContain(REFUSED);
    expectNoLeak("the run's events", JSON.stringify(events));
    expectNoLeak("the model's requests", sent);
  });
});
