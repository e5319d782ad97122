// A program starting runs through an agent's webhook, over real HTTP: 202 at once with the run's id, the run stored
// as via the webhook with the body as its message and its maker as who started it (R-trigger-run-as); a template;
// ?wait=1 with the agent's reply (R-trigger-webhook-wait); one 404 for every wrong address (R-trigger-webhook-token);
// Rotate (R-trigger-webhook-rotate); the Origin exemption (R-trigger-webhook-origin); the limits (R-trigger-webhook-body).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { text } from "@/tests/support/loopback-model";
import { hookStudio, post, type HookAnswer, type HookStudio } from "./hooks-studio";

let s: HookStudio;
let agentId: string;
let address: string;

beforeAll(async () => {
  s = await hookStudio("triggers-webhook");
  agentId = await s.agent("triage");
  const { createWebhook } = await import("@/server/triggers/webhooks");
  const { getDb } = await import("@/server/db");
  address = s.url + (await createWebhook(await getDb(), s.builderId, agentId)).path;
});
beforeEach(() => {
  s.model.reset();
  s.model.fallback = text("Noted.");
});
afterAll(async () => s?.close());

async function runtime() {
  const { studioRuntime } = await import("@/server/runtime");
  return studioRuntime();
}

/** The run as /runs and its trace read it, once its loop has stopped. */
async function settled(runId: string) {
  const r = await runtime();
  await r.idle(runId);
  const { run, events } = await r.get(runId);
  const said = events.filter((e) => e.type === "message" && e.data.role === "user").map((e) => String(e.data.text));
  return { run, said };
}

async function setTemplate(template: string | null) {
  const { setWebhookTemplate } = await import("@/server/triggers/webhooks");
  const { getDb } = await import("@/server/db");
  await setWebhookTemplate(await getDb(), s.builderId, agentId, template);
}

describe("a webhook starts a run", () => {
  it("answers 202 at once with the run's id; the run is via the webhook, started as its maker, the JSON body indented as its message", async () => {
    const payload = { event: "push", commits: [{ id: "a1", message: "Fix the build" }] };
    const answer = await post<HookAnswer>(address, JSON.stringify(payload), { "content-type": "application/json" });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.json).toEqual({ runId: expect.any(String), status: "running", links: { run: `/runs/${answer.json!.runId}` } });
    const { run, said } = await settled(answer.json!.runId);
    expect(run).toMatchObject({ agentId, via: "webhook", viaKeyId: null, startedBy: s.builderId, startedByName: "Bea", status: "done" });
    expect(said).toEqual([JSON.stringify(payload, null, 2)]);
  });

  it("takes a text body as it is, and writes an audit row naming the webhook and the run", async () => {
    const answer = await post<HookAnswer>(address, "The nightly backup finished.", { "content-type": "text/plain" });
    expect(answer.status).toBe(202);
    expect((await settled(answer.json!.runId)).said).toEqual(["The nightly backup finished."]);
    const { getDb } = await import("@/server/db");
    const { audit } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    const rows = await (await getDb()).select().from(audit).where(eq(audit.target, answer.json!.runId));
    expect(rows).toEqual([expect.objectContaining({ action: "webhook.run", actor: expect.stringMatching(/^webhook:/), detail: expect.objectContaining({ agentId, runAs: s.builderId }) })]);
  });

  it("makes the message through the template, a missing field left empty and named in the answer", async () => {
    await setTemplate("New issue #{{body.issue.number}}: {{body.issue.title}} (by {{body.issue.author}})");
    try {
      const answer = await post<HookAnswer>(address, JSON.stringify({ issue: { number: 7, title: "Login fails" } }), { "content-type": "application/json" });
      expect(answer.status).toBe(202);
      expect(answer.json!.missing).toEqual(["body.issue.author"]);
      expect((await settled(answer.json!.runId)).said).toEqual(["New issue #7: Login fails (by )"]);
    } finally {
      await setTemplate(null);
    }
  });

  it("with ?wait=1 answers 200 with the agent's reply from the model", async () => {
    s.model.reply(text("Three files sorted."));
    const answer = await post<HookAnswer>(`${address}?wait=1`, "Sort the inbox.", { "content-type": "text/plain" });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ status: "done", reply: "Three files sorted.", runId: expect.any(String) });
    expect((await settled(answer.json!.runId)).run.via).toBe("webhook");
  });

  it("with ?wait=1 says a failed run failed, with its sentence", async () => {
    s.model.fallback = null;
    const answer = await post<HookAnswer>(`${address}?wait=1`, "Sort the inbox.");
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: "failed", error: expect.stringMatching(/\.$/) });
  });

  it("refuses an unknown wait, an empty body and JSON that is not, with a sentence and nothing started", async () => {
    const before = (await (await runtime()).list({ agentId })).length;
    const bad = await post(`${address}?wait=yes`, "hi");
    expect(bad.status).toBe(400);
    expect(bad.json!.error.message).toMatch(/^wait is 1 to wait/);
    expect((await post(address, "", { "content-type": "text/plain" })).json!.error.code).toBe("EMPTY_BODY");
    expect((await post(address, '{"cut":', { "content-type": "application/json" })).json!.error.code).toBe("INVALID_JSON");
    expect((await (await runtime()).list({ agentId })).length).toBe(before);
  });
});

describe("a webhook's address", () => {
  it("answers a wrong token, an unknown agent and an agent without a webhook alike: 404, no hint which", async () => {
    const other = await s.agent("no webhook");
    const token = address.split("/").pop()!;
    const wrong = [
      address.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
      `${s.url}/api/hooks/00000000-0000-4000-8000-000000000000/${token}`,
      `${s.url}/api/hooks/${other}/${token}`,
      `${s.url}/api/hooks/not-an-id/short`,
    ];
    const answers = await Promise.all(wrong.map((url) => post(url, "hi")));
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers[0]!.json!.error).toEqual({ code: "NO_SUCH_WEBHOOK", message: expect.stringMatching(/^There is no webhook at this address/) });
  });

  it("stops answering on the old address the moment it is rotated, and starts on the new one", async () => {
    const { rotateWebhook } = await import("@/server/triggers/webhooks");
    const { getDb } = await import("@/server/db");
    const old = address;
    const rotated = s.url + (await rotateWebhook(await getDb(), s.builderId, agentId)).path;
    expect(rotated).not.toBe(old);
    expect((await post(old, "hi")).status).toBe(404);
    expect((await post(rotated, "hi")).status).toBe(202);
    address = rotated;
  });

  it("stops while the person who made it is disabled", async () => {
    const { getDb } = await import("@/server/db");
    const { user } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    const db = await getDb();
    await db.update(user).set({ disabled: true }).where(eq(user.id, s.builderId));
    try {
      expect((await post(address, "hi")).status).toBe(404);
    } finally {
      await db.update(user).set({ disabled: false }).where(eq(user.id, s.builderId));
    }
    expect((await post(address, "hi")).status).toBe(202);
  });
});

describe("a webhook's request at the edge", () => {
  it("is taken from any site without the studio's cookie, since its token is its credential", async () => {
    const answer = await post<HookAnswer>(address, "hi", { origin: "https://ci.example.com", "sec-fetch-site": "cross-site" });
    expect(answer.status, answer.text).toBe(202);
  });

  it("is held to the Origin check like any page's request when it carries the studio's cookie", async () => {
    const cookie = "quiver.session_token=abc.def";
    const answer = await post(address, "hi", { origin: "https://elsewhere.example", cookie });
    expect(answer.status).toBe(403);
    expect(answer.json!.error).toEqual({ code: "FROM_ANOTHER_SITE", message: expect.stringMatching(/another site/) });
  });

  it("refuses a body over 8 MB with 413 and a sentence, and starts nothing", async () => {
    const before = (await (await runtime()).list({ agentId })).length;
    const answer = await post(address, new Uint8Array(9 * 1024 * 1024).fill(97), { "content-type": "text/plain" });
    expect(answer.status).toBe(413);
    expect(answer.json!.error).toEqual({ code: "BODY_TOO_LARGE", message: expect.stringMatching(/over the studio's limit of 8 MB/) });
    expect((await (await runtime()).list({ agentId })).length).toBe(before);
  });

  it("refuses a message over 100,000 characters, pointing at the template", async () => {
    const answer = await post(address, "x".repeat(100_001), { "content-type": "text/plain" });
    expect(answer.status).toBe(413);
    expect(answer.json!.error.message).toMatch(/give the webhook a template/);
  });
});
