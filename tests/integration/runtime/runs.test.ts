// Runs end to end, through the real loop, tool host and loopback model: what the model is offered and sent, the
// model's key and its failures in one sentence, persistence step by step and streaming resumable from an event id,
// the catalog read once per run, continuing a conversation, and surviving a restart.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { Runtime, type RunEvent } from "@/server/runtime";
import { createSecret } from "@/server/secrets/store";
import { call, failure, offeredTools, text, toolMessages } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, waitForEvent, type Studio } from "./setup";

const NOTES = `"""Notes kept in memory."""

import time


def read(subject: str) -> str:
    """Read one note whole.

    Args:
        subject: The note's name.
    """
    return f"the note on {subject}"


def write(subject: str, body: str) -> str:
    """Write one note.

    Args:
        subject: The note's name.
        body: The note.
    """
    return "written"


def slow(seconds: float) -> str:
    """Take a while.

    Args:
        seconds: How long.
    """
    time.sleep(seconds)
    return "slow done"
`;

const KEY = "sk-loop-0123456789abcdef";
let s: Studio;

beforeAll(async () => {
  s = await studio("runs", { "notes.py": NOTES });
  await createSecret(s.database.db, "admin", { name: "LOOP_KEY", value: KEY });
  await createSecret(s.database.db, "admin", { name: "WRONG_KEY", value: "sk-wrong-key-value" });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

describe("the model", () => {
  it("is offered exactly the agent's narrowed operations: name, description and input schema, nothing of their settings", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/notes.py#notes__read" }, { entry: "system:filesystem#read_file", settings: { root: "inbox" } }] });
    s.model.reply(text("hello"));
    await s.run(agent);
    const request = s.model.requests.at(-1)!;
    expect(offeredTools(request)).toEqual(["notes__read", "read_file"]);
    expect(request.body.tools![0]).toEqual({
      type: "function",
      function: {
        name: "notes__read",
        description: "Read one note whole.",
        parameters: { type: "object", properties: { subject: { type: "string", description: "The note's name." } }, required: ["subject"] },
      },
    });
    expect(request.raw).not.toContain("inbox");
  });

  it("gets the API key picked by name as the provider's credential, and never sees it in a request body", async () => {
    const agent = await s.agent({ tools: [], model: { provider: "openai-compatible", model: "loopback", base_url: s.model.url, api_key: "${LOOP_KEY}" } });
    s.model.expectKey = KEY;
    s.model.reply(text("hello"));
    const runId = await s.run(agent);
    expect((await s.runtime.get(runId)).run.status).toBe("done");
    const request = s.model.requests.at(-1)!;
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.raw).not.toContain(KEY);
    expect(JSON.stringify(await s.events(runId))).not.toContain(KEY);
  });

  it("fails the run with one sentence when the provider refuses the key", async () => {
    const agent = await s.agent({ tools: [], model: { provider: "openai-compatible", model: "loopback", base_url: s.model.url, api_key: "${WRONG_KEY}" } });
    s.model.expectKey = KEY;
    const run = await settled(s, (await s.runtime.start({ agentId: agent, message: "Hi.", user: ANN })).runId);
    expect(run.status).toBe("failed");
    expect(run.error).toBe(
      "The OpenAI-compatible server refused the API key (HTTP 401: Incorrect API key provided); check the secret ${WRONG_KEY} in the agent's Model section.",
    );
    expect(dataOf(await s.events(run.id), "status").at(-1)).toEqual({ status: "failed", error: run.error });
  });

  it("fails the run with one sentence when the provider cannot be reached", async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const url = `http://127.0.0.1:${port}/v1`;
    const agent = await s.agent({ tools: [], model: { provider: "openai-compatible", model: "loopback", base_url: url } });
    const run = await settled(s, (await s.runtime.start({ agentId: agent, message: "Hi.", user: ANN })).runId);
    expect(run.status).toBe("failed");
    expect(run.error).toBe(`The OpenAI-compatible server at ${url} could not be reached (connect ECONNREFUSED 127.0.0.1:${port}); check its address and that it is running, then send the message again.`);
  });

  it("fails the run with one sentence when the provider rate-limits it", async () => {
    const agent = await s.agent({ tools: [] });
    s.model.reply(failure(429, "Rate limit reached for requests"));
    const run = await settled(s, (await s.runtime.start({ agentId: agent, message: "Hi.", user: ANN })).runId);
    expect(run.status).toBe("failed");
    expect(run.error).toBe(
      "The OpenAI-compatible server is rate-limiting this key (HTTP 429: Rate limit reached for requests); wait a moment and send the message again, or use a key with a higher limit.",
    );
  });
});

describe("the loopback model", () => {
  it("answers whole (non-streamed) replies as the provider's non-streaming call reads them", async () => {
    const provider = createOpenAICompatible({ name: "loopback", baseURL: s.model.url })("loopback");
    s.model.reply({ toolCalls: [{ name: "notes__read", arguments: { subject: "tea" }, id: "call_1" }], text: "Reading." });
    const reply = await provider.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "Hi." }] }] });
    expect(reply.content).toEqual([
      { type: "text", text: "Reading." },
      { type: "tool-call", toolCallId: "call_1", toolName: "notes__read", input: '{"subject":"tea"}' },
    ]);
    expect(reply.finishReason.unified).toBe("tool-calls");
    expect(s.model.requests.at(-1)!.body.stream).toBeFalsy();
  });
});

describe("persistence and streaming", () => {
  it("stores the run and every step as run_events in order, streaming the text as deltas but storing the message whole", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/notes.py" }] });
    s.model.reply(call("notes__read", { subject: "tea" }), text("The note on tea says: the note on tea."));
    const { runId } = await s.runtime.start({ agentId: agent, message: "What about tea?", user: ANN });
    const streamed: RunEvent[] = [];
    const controller = new AbortController();
    const watching = (async () => {
      for await (const event of await s.runtime.subscribe(runId, null, controller.signal)) {
        streamed.push(event);
        if (event.type === "status" && (event.data as { status: string }).status === "done") controller.abort();
      }
    })();
    await settled(s, runId);
    await watching;
    const stored = await s.events(runId);
    expect(stored.map((e) => e.type)).toEqual(["run_started", "message", "message", "tool_call", "tool_started", "tool_result", "message", "status"]);
    expect(stored.map((e) => Number(e.id))).toEqual([...stored.map((e) => Number(e.id))].sort((a, b) => a - b));
    expect(dataOf(stored, "message").at(-1)).toMatchObject({ role: "assistant", text: "The note on tea says: the note on tea.", calls: [] });
    const deltas = streamed.filter((e) => e.type === "delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((d) => (d.data as { text: string }).text).join("")).toBe("The note on tea says: the note on tea.");
    expect(deltas.every((d) => /^\d+\.\d+$/.test(d.id))).toBe(true);
    expect(streamed.filter((e) => e.type !== "delta").map((e) => e.id)).toEqual(stored.map((e) => e.id));
    const row = (await s.runtime.get(runId)).run;
    expect(row).toMatchObject({ status: "done", tokensIn: 20, tokensOut: 10, startedByName: "Ann", agentName: expect.any(String) });
  });

  it("resumes a subscription from an event id: the stored events after it, then live ones", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/notes.py", permissions: { notes__write: "ASK" } }] });
    s.model.reply(call("notes__write", { subject: "tea", body: "green" }), text("Written."));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Write it.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    const stored = await s.events(runId);
    const from = stored[2]!.id;
    const controller = new AbortController();
    const seen: RunEvent[] = [];
    const watching = (async () => {
      for await (const event of await s.runtime.subscribe(runId, from, controller.signal)) {
        seen.push(event);
        if (event.type === "status" && (event.data as { status: string }).status === "done") controller.abort();
      }
    })();
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    await settled(s, runId);
    await watching;
    const all = await s.events(runId);
    expect(seen.filter((e) => e.type !== "delta").map((e) => e.id)).toEqual(all.slice(3).map((e) => e.id));
    // A delta's id resumes after the stored event it followed.
    const replayed: RunEvent[] = [];
    for await (const event of await s.runtime.subscribe(runId, `${all.at(-3)!.id}.2`, AbortSignal.timeout(300))) replayed.push(event);
    expect(replayed.map((e) => e.id)).toEqual(all.slice(-2).map((e) => e.id));
  });

  it("reads the catalog once per run: a signature changed mid-run reaches the model on the next run", async () => {
    const file = path.join(s.tree, "notes.py");
    const agent = await s.agent({ tools: [{ entry: "tools/notes.py#notes__read" }] });
    const changed = NOTES.replace("Read one note whole.", "Read one note, whole and fresh.");
    s.model.reply(
      () => {
        fs.writeFileSync(file, changed);
        const when = Date.now() / 1000 + 2;
        fs.utimesSync(file, when, when);
        return call("notes__read", { subject: "tea" });
      },
      text("done"),
      text("again"),
    );
    await s.run(agent);
    const [first, second] = s.model.requests.slice(-2);
    expect(first!.body.tools![0]!.function.description).toBe("Read one note whole.");
    expect(second!.body.tools![0]!.function.description).toBe("Read one note whole.");
    await s.run(agent);
    expect(s.model.requests.at(-1)!.body.tools![0]!.function.description).toBe("Read one note, whole and fresh.");
    fs.writeFileSync(file, NOTES);
  });

  it("continues the conversation with another message once the run has answered", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/notes.py#notes__read" }] });
    s.model.reply(call("notes__read", { subject: "tea" }), text("It is about tea."), text("And coffee too."));
    const runId = await s.run(agent, "What is the note?");
    await expect(s.runtime.send({ runId: "00000000-0000-4000-8000-000000000000", message: "x", user: ANN })).rejects.toThrow(/no such run/);
    await s.runtime.send({ runId, message: "Anything else?", user: ANN });
    await s.runtime.idle(runId);
    expect((await s.runtime.get(runId)).run.status).toBe("done");
    const messages = s.model.requests.at(-1)!.body.messages.map((m) => [m.role, typeof m.content === "string" ? m.content : null]);
    expect(messages).toEqual([
      ["user", "What is the note?"],
      ["assistant", null],
      ["tool", "the note on tea"],
      ["assistant", "It is about tea."],
      ["user", "Anything else?"],
    ]);
  });
});

describe("restarts", () => {
  it("keeps a run waiting for approval across a restart, and continues it from its events when approved", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/notes.py", permissions: { notes__write: "ASK" } }] });
    s.model.reply(call("notes__read", { subject: "tea" }), call("notes__write", { subject: "tea", body: "green" }), text("Done after the restart."));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Update the note.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");

    // The studio stops: its loops end without a word, and the database closes.
    await s.runtime.shutdown();
    await s.database.close();
    s.database = await openDatabase({ dataDir: s.dataDir });
    s.runtime = new Runtime({ db: s.database.db, tree: s.tree, dataDir: s.dataDir, modelRetries: 0 });
    // The stopped process gave the run's job back: the next one takes it and waits on (R-queue-lease). Within 8 s,
    // short of the 10 s lease whose lapse would also hand it over, and with room for a loaded machine's slower polls.
    await s.runtime.connect();
    await expect.poll(() => s.runtime.isLive(runId), { timeout: 8_000 }).toBe(true);
    // The run's row says so a moment after the approval event is out: the event is what a watcher waits on.
    await expect.poll(async () => (await s.runtime.get(runId)).run.status, { timeout: 10_000 }).toBe("waiting");

    await s.runtime.decide(runId, asked.callId, "once", ANN);
    const run = await settled(s, runId);
    expect(run.status).toBe("done");
    const last = s.model.requests.at(-1)!;
    expect(toolMessages(last).map((m) => m.content)).toEqual(["the note on tea", "written"]);
    const events = await s.events(runId);
    expect(dataOf(events, "approval_requested")).toHaveLength(1);
    expect(dataOf(events, "tool_call")).toHaveLength(2);
    expect(dataOf(events, "message").at(-1)).toMatchObject({ role: "assistant", text: "Done after the restart." });
  });

  it("goes on in the next process when the studio restarted mid-run: the manual call in flight waits for the person, who says it ran (R-queue-lease, R-journal-manual)", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/notes.py#notes__slow" }] });
    s.model.reply(call("notes__slow", { seconds: 3 }), text("Checked after the restart."));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Take your time.", user: ANN });
    await waitForEvent(s.runtime, runId, "tool_started");
    await s.runtime.shutdown();
    await s.database.close();
    s.database = await openDatabase({ dataDir: s.dataDir });
    s.runtime = new Runtime({ db: s.database.db, tree: s.tree, dataDir: s.dataDir, modelRetries: 0 });
    await s.runtime.connect();
    const card = await waitForEvent(s.runtime, runId, "recovery_requested");
    expect(card).toMatchObject({ operation: "notes__slow", why: "restarted", round: 1 });
    await s.runtime.recover(runId, card.callId, "done", ANN, "It finished.");
    // The person's word wakes the run through the queue's words, a moment after it is said: until then the run is
    // still waiting, with no loop going for idle() to wait on.
    await expect.poll(async () => (await settled(s, runId)).status, { timeout: 20_000 }).toBe("done");
    const run = await settled(s, runId);
    expect(run).toMatchObject({ status: "done", error: null });
    const events = await s.events(runId);
    expect(dataOf(events, "tool_result")).toEqual([expect.objectContaining({ outcome: "ok", text: "It finished." })]);
    expect(dataOf(events, "message").at(-1)).toMatchObject({ role: "assistant", text: "Checked after the restart." });
    expect(dataOf(events, "run_started")).toHaveLength(1);
  });
});
