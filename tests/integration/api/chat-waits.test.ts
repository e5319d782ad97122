// The endpoint while a run waits on a person, fails, or outlives its client: an Ask me call keeps the stream open
// with keep-alive comments up to the key's wait limit, then the answer says where the run waits and the run waits
// on; a failed run ends in OpenAI's error shape with its sentence; a client that goes away leaves the run going;
// and a secret bound to a tool never reaches the answer.
import { eq } from "drizzle-orm";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runs } from "@/db/schema";
import { createSecret } from "@/server/secrets/store";
import { call, failure, text, toolMessages } from "@/tests/support/loopback-model";
import { chatStudio, contentOf, readStream, type ChatStudio } from "./chat-studio";

const NOTES = `"""Notes."""


def write(subject: str) -> str:
    """Write one note.

    Args:
        subject: The note's name.
    """
    return "written " + subject
`;

const SERVICE = `"""A service whose tool leaks its token on purpose."""

import base64

from quiver import Secret


class Settings:
    """Credentials.

    Attributes:
        token: The service's token.
    """

    token: Secret


def whoami(settings: Settings) -> str:
    """Say who the service thinks we are."""
    return "token=" + settings.token + " b64=" + base64.b64encode(settings.token.encode()).decode()
`;

const TOKEN = "svc_live_7c6b5a4d3e2f";
const BEAT_MS = 150;

let s: ChatStudio;
let notes: { id: string; name: string };
let key: { value: string; id: string; name: string };

beforeAll(async () => {
  s = await chatStudio("chat-waits", { "notes.py": NOTES, "service.py": SERVICE }, { beatMs: BEAT_MS });
  notes = await s.agent({ name: "notes", tools: [{ entry: "tools/notes.py", permissions: { notes__write: "ASK" } }] });
  key = await s.key({ waitLimitS: 1 });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

const post = (body: unknown, keyValue = key.value) =>
  fetch(`${s.base}/api/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${keyValue}`, "content-type": "application/json" }, body: JSON.stringify(body) });

async function statusOf(runId: string) {
  const [row] = await s.db.select({ status: runs.status }).from(runs).where(eq(runs.id, runId));
  return row!.status;
}

describe("an Ask me call (R-api-chat-wait)", () => {
  it("keeps the stream open with keep-alive comments, then ends with where the run waits, and the run waits on", async () => {
    s.model.reply({ toolCalls: [{ name: "notes__write", arguments: { subject: "groceries" } }], text: "Let me write that down." }, text("Written."));
    const started = performance.now();
    const response = await post({ model: notes.name, messages: [{ role: "user", content: "Note groceries." }], stream: true });
    const runId = response.headers.get("x-quiver-run-id")!;
    const { events, comments } = await readStream(response);
    const elapsed = performance.now() - started;

    // One beat on entering the wait, then one every BEAT_MS, until the key's 1 s limit.
    expect(comments.length).toBeGreaterThanOrEqual(4);
    expect(new Set(comments.map((c) => c.text))).toEqual(new Set(["waiting for approval"]));
    expect(elapsed).toBeGreaterThanOrEqual(1_000);
    const content = contentOf(events);
    expect(content).toContain("Let me write that down.");
    expect(content).toContain("The agent is waiting for approval of “Write”");
    expect(content).toContain(`in the studio at ${s.base}/runs/${runId}`);
    expect(content).toContain(`POST /api/v1/runs/${runId}/decisions`);
    expect(events.at(-1)).toBe("[DONE]");

    // The run goes on waiting, and goes on when someone decides.
    expect(await statusOf(runId)).toBe("waiting");
    const runtime = await s.runtime();
    const [waiting] = (await runtime.get(runId)).events.filter((e) => e.type === "approval_requested");
    await runtime.decide(runId, String(waiting!.data.callId), "once", { id: "user-ann", name: "Ann" });
    await runtime.idle(runId);
    expect(await statusOf(runId)).toBe("done");
  });

  it("makes a whole answer wait up to the same limit, through the openai client", async () => {
    s.model.reply(call("notes__write", { subject: "taxes" }));
    const started = performance.now();
    const { data, response } = await s.client(key.value).chat.completions.create({ model: notes.name, messages: [{ role: "user", content: "Note taxes." }] }).withResponse();
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
    const runId = response.headers.get("x-quiver-run-id")!;
    expect(data.choices[0]!.message.content).toMatch(/^The agent is waiting for approval of “Write” before it goes on\. /);
    expect(await statusOf(runId)).toBe("waiting");
    await (await s.runtime()).cancel(runId, { id: "user-ann", name: "Ann" });
  });
});

describe("a run that fails (R-api-chat-stream)", () => {
  it("ends the stream with OpenAI's error shape carrying the run's sentence", async () => {
    s.model.reply(failure(401, "Incorrect API key provided."));
    const stream = await s.client(key.value).chat.completions.create({ model: notes.name, messages: [{ role: "user", content: "Hi." }], stream: true });
    const error = await (async () => {
      for await (const chunk of stream) void chunk;
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toMatch(/refused the key|key/i);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("run_failed");
  });

  it("answers a whole request with the sentence and no stack", async () => {
    s.model.reply(failure(401, "Incorrect API key provided."));
    const response = await post({ model: notes.name, messages: [{ role: "user", content: "Hi." }] });
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { message: string; type: string; code: string } };
    expect(body.error).toMatchObject({ type: "server_error", code: "run_failed" });
    expect(body.error.message).not.toMatch(/\n\s+at /);
    expect(await statusOf(response.headers.get("x-quiver-run-id")!)).toBe("failed");
  });
});

describe("a run stopped in the studio", () => {
  it("ends the stream with OpenAI's error shape saying who stopped it", async () => {
    s.model.reply(text("A long answer that someone stops halfway through.", { paceMs: 100 }));
    const response = await post({ model: notes.name, messages: [{ role: "user", content: "Talk." }], stream: true });
    const runId = response.headers.get("x-quiver-run-id")!;
    const read = readStream(response);
    const runtime = await s.runtime();
    // Stopped once the model has begun to write.
    const watching = new AbortController();
    const timer = setTimeout(() => watching.abort(), 10_000);
    for await (const event of await runtime.subscribe(runId, null, watching.signal)) if (event.type === "delta") break;
    clearTimeout(timer);
    watching.abort();
    await runtime.cancel(runId, { id: "user-ann", name: "Ann" });
    const { events } = await read;
    expect(events.at(-1)).not.toBe("[DONE]");
    const error = (JSON.parse(events.at(-1)!) as { error: { message: string; type: string; code: string } }).error;
    expect(error).toMatchObject({ type: "server_error", code: "run_cancelled" });
    expect(error.message).toBe(`The run was stopped by Ann before it finished its answer; what it had written is in the studio at ${s.base}/runs/${runId}.`);
    expect(contentOf(events.slice(0, -1)).length).toBeGreaterThan(0);
  });
});

describe("a client that goes away (R-api-chat-run)", () => {
  it("leaves the run going: it finishes and is stored", async () => {
    s.model.reply(text("A long answer that the client will not read to its end.", { paceMs: 80 }));
    const request = new Request(`${s.base}/api/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.value}`, "content-type": "application/json" },
      body: JSON.stringify({ model: notes.name, messages: [{ role: "user", content: "Talk." }], stream: true }),
    });
    const response = await s.chat(request);
    const runId = response.headers.get("x-quiver-run-id")!;
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await (await s.runtime()).idle(runId);
    expect(await statusOf(runId)).toBe("done");
    const messages = (await (await s.runtime()).get(runId)).events.filter((e) => e.type === "message" && e.data.role === "assistant");
    expect(messages.map((m) => m.data.text)).toEqual(["A long answer that the client will not read to its end."]);
  });
});

describe("secrets (R-api-chat-tools, R-secret-mask)", () => {
  it("never puts a tool's secret in the answer, streamed or whole", async () => {
    await createSecret(s.db, "admin", { name: "SERVICE_TOKEN", value: TOKEN });
    const service = await s.agent({ name: "service", tools: [{ entry: "tools/service.py", settings: { token: "${SERVICE_TOKEN}" } }] });
    // The model repeats what the tool told it, word for word.
    const echo = (request: Parameters<typeof toolMessages>[0]) => text(`The tool said: ${toolMessages(request)[0]!.content}`);
    s.model.reply(call("service__whoami"), echo, call("service__whoami"), echo);

    const whole = await post({ model: service.name, messages: [{ role: "user", content: "Who are we?" }] });
    const body = await whole.text();
    const streamed = await readStream(await post({ model: service.name, messages: [{ role: "user", content: "Who are we?" }], stream: true }));
    expect((JSON.parse(body) as OpenAI.ChatCompletion).choices[0]!.message.content).toBe("The tool said: token=*** b64=***");
    expect(contentOf(streamed.events)).toBe("The tool said: token=*** b64=***");
    for (const answer of [body, streamed.raw]) {
      expect(answer).not.toContain(TOKEN);
      expect(answer).not.toContain(Buffer.from(TOKEN).toString("base64"));
    }
  });
});
