// The Triggers section's procedures on the studio's PGlite, as a builder uses them: the webhook's address comes back
// from create and rotate only and nothing read later carries the token or its hash; each fault of a template or a
// schedule is a sentence at its field with nothing saved; the preview gives the next five times or the sentence
// (R-trigger-roles, R-trigger-webhook-token, R-trigger-webhook-template, R-trigger-schedule-cron).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-triggers-procedures-"));
fs.mkdirSync(path.join(scratch, "tools"));
// Before anything reads the configuration: this test's own data folder.
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = path.join(scratch, "tools");
process.env.DATABASE_URL = "";

const BUILDER = { id: "user-bo", email: "bo@quiver.test", name: "Bo", role: "builder" as const };
let agentId: string;

async function api() {
  const { createCallerFactory } = await import("@/server/trpc/init");
  const { triggersRouter } = await import("@/server/trpc/routers/triggers");
  return createCallerFactory(triggersRouter)({ headers: new Headers(), user: BUILDER });
}

/** The problems a refused save lists, by field. */
async function refusal(work: Promise<unknown>): Promise<Record<string, string>> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const cause = (error as TRPCError).cause as { reason?: string; details?: { problems?: { path: string; message: string }[] } };
  expect(cause.reason).toBe("INVALID_TRIGGER");
  return Object.fromEntries((cause.details?.problems ?? []).map((p) => [p.path, p.message]));
}

beforeAll(async () => {
  const { getDb } = await import("@/server/db");
  const { user } = await import("@/db/schema");
  const { createAgent } = await import("@/server/agents/store");
  const db = await getDb();
  await db.insert(user).values(BUILDER);
  const declaration = { name: "triage", model: { provider: "openai-compatible", model: "m", base_url: "http://127.0.0.1:9/v1" }, tools: [] };
  agentId = (await createAgent(db, BUILDER.id, declaration, { tree: path.join(scratch, "tools"), workspace: path.join(scratch, "work") })).id;
});

afterAll(async () => {
  const { closeDatabase } = await import("@/server/db");
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the webhook through tRPC", () => {
  it("answers the address with its token from create and rotate only; the webhook read later carries only its hint", async () => {
    const triggers = await api();
    expect(await triggers.webhook({ agentId })).toBeNull();
    const made = await triggers.createWebhook({ agentId });
    const token = made.path.split("/").pop()!;
    expect(made.path).toBe(`/api/hooks/${agentId}/${token}`);
    expect(token).toMatch(/^wh_[A-Za-z0-9_-]{43}$/);
    const read = await triggers.webhook({ agentId });
    expect(read).toMatchObject({ hint: token.slice(0, 7), template: null, runAs: { id: BUILDER.id, name: "Bo", active: true } });
    const carried = JSON.stringify(read);
    expect(carried).not.toContain(token);
    expect(carried).not.toContain('"hash"');
    await expect(triggers.createWebhook({ agentId })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/Rotate gives it a new address/) });

    const rotated = await triggers.rotateWebhook({ agentId });
    expect(rotated.path).not.toBe(made.path);
    expect(JSON.stringify(await triggers.webhook({ agentId }))).not.toContain(rotated.path.split("/").pop()!);
  });

  it("keeps the database free of the token: only its SHA-256", async () => {
    const { getDb } = await import("@/server/db");
    const { webhooks } = await import("@/db/schema");
    const { hashOf } = await import("@/server/keys/value");
    const triggers = await api();
    const { path: address } = await triggers.rotateWebhook({ agentId });
    const token = address.split("/").pop()!;
    const rows = await (await getDb()).select().from(webhooks);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.hash).toBe(hashOf(token));
  });

  it("saves a template, refuses one that names what is not the body at its field, and clears it when empty", async () => {
    const triggers = await api();
    expect((await triggers.setWebhookTemplate({ agentId, template: "Issue: {{body.issue.title}}" })).template).toBe("Issue: {{body.issue.title}}");
    const problems = await refusal(triggers.setWebhookTemplate({ agentId, template: "From {{headers.from}}" }));
    expect(problems.template).toMatch(/is not a field of the request/);
    expect((await triggers.webhook({ agentId }))!.template).toBe("Issue: {{body.issue.title}}");
    expect((await triggers.setWebhookTemplate({ agentId, template: "  " })).template).toBeNull();
  });

  it("removes the webhook, after which it is none", async () => {
    const triggers = await api();
    await triggers.removeWebhook({ agentId });
    expect(await triggers.webhook({ agentId })).toBeNull();
    await expect(triggers.rotateWebhook({ agentId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("schedules through tRPC", () => {
  it("previews the next five times, or says what is wrong at the field", async () => {
    const triggers = await api();
    const good = await triggers.preview({ cron: "0 9 * * 1-5", timeZone: "Europe/Paris" });
    expect(good.problems).toEqual([]);
    expect(good.times).toHaveLength(5);
    expect(good.times.every((t) => t.label.endsWith(", 09:00"))).toBe(true);
    const bad = await triggers.preview({ cron: "0 25 * * *", timeZone: "Europe/Pariss" });
    expect(bad.times).toEqual([]);
    expect(bad.problems.map((p) => p.path)).toEqual(["cron", "timeZone"]);
    expect(bad.problems[0]!.message).toMatch(/^The hour field “25”/);
  });

  it("refuses a schedule with every fault at its field, and saves nothing", async () => {
    const triggers = await api();
    const problems = await refusal(triggers.createSchedule({ agentId, cron: "* * * * * *", timeZone: "Nowhere/Atall", message: "  ", enabled: true, catchUp: "skip" }));
    expect(Object.keys(problems).sort()).toEqual(["cron", "message", "timeZone"]);
    expect(problems.message).toMatch(/^Write the message each run starts with/);
    expect(await triggers.schedules({ agentId })).toEqual([]);
  });

  it("makes, turns off, changes and removes a schedule", async () => {
    const triggers = await api();
    const made = await triggers.createSchedule({ agentId, cron: "30 7 * * *", timeZone: "UTC", message: "Good morning.", enabled: true, catchUp: "run_once" });
    expect(made).toMatchObject({ cron: "30 7 * * *", catchUp: "run_once", runAs: { name: "Bo", active: true } });
    expect(made.next).toHaveLength(5);
    const off = await triggers.updateSchedule({ id: made.id, enabled: false });
    expect(off.next).toEqual([]);
    const changed = await triggers.updateSchedule({ id: made.id, enabled: true, message: "Morning report." });
    expect(changed).toMatchObject({ message: "Morning report.", enabled: true, cron: "30 7 * * *" });
    expect((await triggers.schedules({ agentId })).map((s) => s.id)).toEqual([made.id]);
    await triggers.removeSchedule({ id: made.id });
    expect(await triggers.schedules({ agentId })).toEqual([]);
    await expect(triggers.removeSchedule({ id: made.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("answers an agent that does not exist as none, for the webhook and the schedules alike", async () => {
    const triggers = await api();
    const nobody = "00000000-0000-4000-8000-000000000000";
    await expect(triggers.schedules({ agentId: nobody })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(triggers.createWebhook({ agentId: nobody })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
