// One call pipeline for Try it and for runs, against the real tool host and the loopback model: a tree call
// answers and masks alike on both paths, and a run decrypts its secrets once per segment and records each
// secret's use once per run (R-secret-reference, R-secret-mask).
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit } from "@/db/schema";
import { tryCall, type TryEvent } from "@/server/calls";
import { resultText } from "@/server/host";
import { createSecret, rotateSecret } from "@/server/secrets/store";
import { call, text } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, waitForEvent, type Studio } from "../runtime/setup";

const SERVICE = `"""A service whose tool says its token back on purpose, and how long it is."""

import base64

from quiver import Context, Secret


class Settings:
    """Credentials.

    Attributes:
        token: The service's token.
    """

    token: Secret


def whoami(ctx: Context, settings: Settings) -> str:
    """Say who the service thinks we are."""
    ctx.progress("calling with " + base64.b64encode(settings.token.encode()).decode())
    return "token=" + settings.token + " b64=" + base64.b64encode(settings.token.encode()).decode() + " length=" + str(len(settings.token))
`;

const TOKEN = "svc_pipeline_0123456789";
let s: Studio;

beforeAll(async () => {
  s = await studio("pipeline", { "service.py": SERVICE });
  await createSecret(s.database.db, "admin", { name: "SERVICE_TOKEN", value: TOKEN });
  await createSecret(s.database.db, "admin", { name: "MODEL_KEY", value: "model-key-9876543210" });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

const settings = { token: "${SERVICE_TOKEN}" };

/** The secret.used rows one run wrote. */
const usedIn = (runId: string) =>
  s.database.db
    .select()
    .from(audit)
    .where(and(eq(audit.action, "secret.used"), sql`${audit.detail}->>'run' = ${runId}`));

describe("one call pipeline", () => {
  it("answers a tree call through Try it and through a run with the same text and progress, masked alike", async () => {
    const events: TryEvent[] = [];
    for await (const event of tryCall({ tree: s.tree, db: s.database.db, actor: ANN.id, name: "service__whoami", args: {}, settings })) events.push(event);
    const tried = events.at(-1)!;
    if (tried.type !== "result") throw new Error("Try it gave no result");

    const agent = await s.agent({ tools: [{ entry: "tools/service.py", settings }] });
    s.model.reply(call("service__whoami"), text("done"));
    const run = await s.events(await s.run(agent));

    expect(resultText(tried.result)).toBe(`token=*** b64=*** length=${TOKEN.length}`);
    expect(dataOf(run, "tool_result")[0]!.text).toBe(resultText(tried.result));
    expect(dataOf(run, "progress").map((p) => p.message)).toEqual(events.filter((e) => e.type === "progress").map((e) => e.message));
  });

  it("decrypts a run's secret once and records its use once, however many calls use it, the model's key too", async () => {
    const agent = await s.agent({
      model: { provider: "openai-compatible", model: "loopback", base_url: s.model.url, api_key: "${MODEL_KEY}" },
      tools: [{ entry: "tools/service.py", settings }],
    });
    s.model.reply(call("service__whoami"), call("service__whoami"), call("service__whoami"), text("done"));
    const runId = await s.run(agent);
    expect(dataOf(await s.events(runId), "tool_result").map((r) => r.outcome)).toEqual(["ok", "ok", "ok"]);
    const rows = await usedIn(runId);
    expect(rows.map((r) => [r.target, (r.detail as { tool: string }).tool]).sort()).toEqual([
      ["MODEL_KEY", "model loopback"],
      ["SERVICE_TOKEN", "service__whoami"],
    ]);
  });

  it("ends a segment when the run waits on the person: the calls after it see a rotated secret, still recorded once", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/service.py", settings, permissions: { service__whoami: "ASK" } }] });
    s.model.reply(call("service__whoami"), call("service__whoami"), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const first = await waitForEvent(s.runtime, runId, "approval_requested");
    await s.runtime.decide(runId, first.callId, "once", ANN);
    const second = await waitForEvent(s.runtime, runId, "approval_requested", (a) => a.callId !== first.callId);
    const rotated = `${TOKEN}_rotated`;
    await rotateSecret(s.database.db, "admin", { name: "SERVICE_TOKEN", value: rotated });
    await s.runtime.decide(runId, second.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const results = dataOf(await s.events(runId), "tool_result").map((r) => r.text);
    expect(results).toEqual([`token=*** b64=*** length=${TOKEN.length}`, `token=*** b64=*** length=${rotated.length}`]);
    expect((await usedIn(runId)).map((r) => r.target)).toEqual(["SERVICE_TOKEN"]);
    await rotateSecret(s.database.db, "admin", { name: "SERVICE_TOKEN", value: TOKEN });
  });

  it("records no second use when the run goes on with another message", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/service.py", settings }] });
    s.model.reply(call("service__whoami"), text("done"), call("service__whoami"), text("done again"));
    const runId = await s.run(agent);
    await s.runtime.send({ runId, message: "Once more.", user: ANN });
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(runId), "tool_result")).toHaveLength(2);
    expect((await usedIn(runId)).map((r) => r.target)).toEqual(["SERVICE_TOKEN"]);
  });

  it("records one use per call by hand: each Try it is a call of its own", async () => {
    const rows = () => s.database.db.select().from(audit).where(and(eq(audit.action, "secret.used"), eq(audit.actor, "dev-twice")));
    for (let i = 0; i < 2; i++) {
      for await (const event of tryCall({ tree: s.tree, db: s.database.db, actor: "dev-twice", name: "service__whoami", args: {}, settings })) void event;
    }
    expect((await rows()).map((r) => (r.detail as { via: string }).via)).toEqual(["try-it", "try-it"]);
  });
});
