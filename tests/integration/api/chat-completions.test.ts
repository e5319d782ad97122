// The OpenAI-compatible endpoint through the official openai client: deltas streamed as the model writes them, the
// whole answer, usage, each request a run recorded as via its key, the client's system text after the agent's
// instructions, and the refusals (tools, images, an unknown model) as sentences. GET /models lists the key's agents.
import { eq } from "drizzle-orm";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit, runs } from "@/db/schema";
import { text } from "@/tests/support/loopback-model";
import { chatStudio, type ChatStudio } from "./chat-studio";

let s: ChatStudio;
let desk: { id: string; name: string };
let key: { value: string; id: string; name: string };
let client: OpenAI;

beforeAll(async () => {
  s = await chatStudio("chat-completions");
  desk = await s.agent({ name: "front desk", instructions: "You are the front desk." });
  key = await s.key();
  client = s.client(key.value);
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

/** The refusal an openai client call ends in. */
async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

/** The sentence the endpoint answered (the client's own message puts the status first). */
const sentence = (error: InstanceType<typeof OpenAI.APIError>) => (error.error as { message: string }).message;

describe("streaming (R-api-chat-stream)", () => {
  it("sends each text delta as its own chunk while the model is still writing, then the finish, the usage and [DONE]", async () => {
    s.model.reply(text("One, two, three, four, five.", { paceMs: 120, usage: { prompt_tokens: 21, completion_tokens: 7 } }));
    const stream = await client.chat.completions.create({
      model: desk.name,
      messages: [{ role: "user", content: "Count to five." }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const arrived: { content: string; at: number }[] = [];
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      const content = chunk.choices[0]?.delta.content;
      if (content) arrived.push({ content, at: performance.now() });
    }

    expect(arrived.map((a) => a.content).join("")).toBe("One, two, three, four, five.");
    // The loopback model sends the text 8 characters at a time: each piece is a chunk of its own.
    expect(arrived.length).toBeGreaterThanOrEqual(4);
    // Every piece reached the client while the model was still answering (it pauses 120 ms after each).
    const finished = s.model.requests.at(-1)!.answeredAt!;
    expect(arrived.every((a) => a.at < finished)).toBe(true);

    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === desk.id)).toBe(true);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 21, completion_tokens: 7, total_tokens: 28 });
  });

  it("sends no usage unless stream_options asks for it, and names the run in x-quiver-run-id", async () => {
    s.model.reply(text("Hello."));
    const { data: stream, response } = await client.chat.completions.create({ model: desk.id, messages: [{ role: "user", content: "Hi." }], stream: true }).withResponse();
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.usage === undefined)).toBe(true);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    expect(response.headers.get("x-quiver-run-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(chunks[0]!.id).toBe(`chatcmpl-${response.headers.get("x-quiver-run-id")}`);
  });
});

describe("a whole answer (R-api-chat-stream)", () => {
  it("returns the chat.completion with the assistant's text and the run's tokens", async () => {
    s.model.reply(text("All sorted.", { usage: { prompt_tokens: 40, completion_tokens: 3 } }));
    const completion = await client.chat.completions.create({ model: desk.name, messages: [{ role: "user", content: "Sort the inbox." }] });
    expect(completion.object).toBe("chat.completion");
    expect(completion.choices[0]!.message).toMatchObject({ role: "assistant", content: "All sorted." });
    expect(completion.choices[0]!.finish_reason).toBe("stop");
    expect(completion.usage).toEqual({ prompt_tokens: 40, completion_tokens: 3, total_tokens: 43 });
  });

  it("counts every model turn of the run in usage, and joins its messages' text as one answer", async () => {
    await s.agent({ name: "front desk with planning", instructions: "Plan.", tools: [{ entry: "system:planning" }] });
    s.model.reply(
      { toolCalls: [{ name: "write_todos", arguments: { todos: [{ content: "sort", status: "in_progress" }] } }], text: "Planning first.", usage: { prompt_tokens: 10, completion_tokens: 2 } },
      text("Done.", { usage: { prompt_tokens: 30, completion_tokens: 1 } }),
    );
    const completion = await client.chat.completions.create({ model: "front desk with planning", messages: [{ role: "user", content: "Go." }] });
    expect(completion.choices[0]!.message.content).toBe("Planning first.\n\nDone.");
    expect(completion.usage).toEqual({ prompt_tokens: 40, completion_tokens: 3, total_tokens: 43 });
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
  });
});

describe("each request is a run (R-api-chat-run, R-api-chat-conversation)", () => {
  it("stores the run as started through the API with the key's name, and an audit row for the key's use", async () => {
    s.model.reply(text("Noted."));
    const { data, response } = await client.chat.completions.create({ model: desk.name, messages: [{ role: "user", content: "Note this." }] }).withResponse();
    expect(data.choices[0]!.message.content).toBe("Noted.");
    const runId = response.headers.get("x-quiver-run-id")!;
    const [row] = await s.db.select().from(runs).where(eq(runs.id, runId));
    expect(row).toMatchObject({ agentId: desk.id, status: "done", via: "api", viaKeyId: key.id, viaKeyName: key.name });
    const uses = await s.db.select().from(audit).where(eq(audit.target, runId));
    expect(uses.map((u) => [u.action, (u.detail as Record<string, unknown>).key])).toEqual([["chat.completions", key.name]]);
  });

  it("starts from the whole conversation: the client's system text after the agent's instructions, then the earlier turns", async () => {
    s.model.reply(text("You are Ada."));
    await client.chat.completions.create({
      model: desk.name,
      messages: [
        { role: "system", content: "Answer in one line." },
        { role: "user", content: "My name is Ada." },
        { role: "assistant", content: "Hello Ada." },
        { role: "user", content: [{ type: "text", text: "What is my name?" }] },
      ],
    });
    const sent = s.model.requests.at(-1)!.body.messages;
    expect(sent[0]).toEqual({ role: "system", content: "You are the front desk.\n\nAnswer in one line." });
    expect(sent.slice(1).map((m) => [m.role, JSON.stringify(m.content)])).toEqual([
      ["user", expect.stringContaining("My name is Ada.")],
      ["assistant", expect.stringContaining("Hello Ada.")],
      ["user", expect.stringContaining("What is my name?")],
    ]);
  });
});

describe("refusals (R-api-chat-tools, R-api-chat-model)", () => {
  it("refuses the client's own tools with a sentence, starting no run", async () => {
    const before = (await s.db.select().from(runs)).length;
    const error = await refusal(
      client.chat.completions.create({
        model: desk.name,
        messages: [{ role: "user", content: "Hi." }],
        tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: {} } } }],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain("an agent's tools are the ones its builder gave it");
    expect((await s.db.select().from(runs)).length).toBe(before);
  });

  it("refuses tool_choice and a tool result message the same way", async () => {
    const choice = await refusal(client.chat.completions.create({ model: desk.name, messages: [{ role: "user", content: "Hi." }], tool_choice: "required" }));
    expect(choice.status).toBe(400);
    expect(choice.message).toContain("tool_choice was sent");
    const result = await refusal(
      client.chat.completions.create({ model: desk.name, messages: [{ role: "user", content: "Hi." }, { role: "tool", tool_call_id: "call_1", content: "42" }] }),
    );
    expect(result.message).toContain("messages[1] is a tool result");
  });

  it("refuses an image with where it is, since a run takes text", async () => {
    const error = await refusal(
      client.chat.completions.create({
        model: desk.name,
        messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] }],
      }),
    );
    expect(error.status).toBe(400);
    expect(sentence(error)).toBe("messages[0].content[1] is an image, but an agent's runs take text only; send the message as text.");
  });

  it("refuses an unknown model naming the agents the key may use, the closest first", async () => {
    await s.agent({ name: "billing" });
    const error = await refusal(client.chat.completions.create({ model: "front dsk", messages: [{ role: "user", content: "Hi." }] }));
    expect(error.status).toBe(404);
    expect(sentence(error)).toMatch(/^There is no agent “front dsk” that the key “key chat-completions 1” may use; send one of its agents' names or ids as model: “front desk”, /);
    expect(error.message).toContain("“billing”");
  });

  it("reads an agent the key may not use as unknown, listing only the key's own", async () => {
    const narrow = await s.key({ agents: [desk.id] });
    const other = await s.agent({ name: "secret project" });
    const error = await refusal(s.client(narrow.value).chat.completions.create({ model: other.name, messages: [{ role: "user", content: "Hi." }] }));
    expect(error.status).toBe(404);
    expect(error.message).toContain("as model: “front desk”.");
    expect(error.message).not.toContain("secret project”.");
  });

  it("refuses a key without the run scope, and a conversation that does not end with the user", async () => {
    const reader = await s.key({ scopes: ["read"] });
    const scope = await refusal(s.client(reader.value).chat.completions.create({ model: desk.name, messages: [{ role: "user", content: "Hi." }] }));
    expect(scope.status).toBe(403);
    const last = await refusal(client.chat.completions.create({ model: desk.name, messages: [{ role: "user", content: "Hi." }, { role: "assistant", content: "Hello." }] }));
    expect(last.status).toBe(400);
    expect(last.message).toContain("does not end with a user message");
  });
});

describe("GET /api/v1/models (R-api-chat-model)", () => {
  it("lists the agents the key may use as OpenAI models, for a key that may run them or read their runs", async () => {
    const narrow = await s.key({ agents: [desk.id], scopes: ["read"] });
    const page = await s.client(narrow.value).models.list();
    expect(page.data.map((m) => ({ id: m.id, object: m.object, owned_by: m.owned_by, name: (m as unknown as { name: string }).name }))).toEqual([
      { id: desk.id, object: "model", owned_by: "quiver", name: "front desk" },
    ]);
    const all = await client.models.list();
    expect(all.data.map((m) => m.id)).toContain(desk.id);
  });

  it("refuses a key that may only decide", async () => {
    const decider = await s.key({ scopes: ["decide"] });
    const error = await refusal(s.client(decider.value).models.list());
    expect(error.status).toBe(403);
  });
});
