// Stopping a run (status cancelled), through the real loop, tool host and loopback model: a model request in
// flight is aborted and what it had written is kept; a call waiting on the person or running is cut short with a
// result that says so; the trace says who stopped it; an ended run cannot be stopped; a waiting run is stopped
// after a restart from its events; and a stopped run takes another message like a finished one.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { Runtime } from "@/server/runtime";
import { call, calls, text, toolMessages } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, waitForEvent, type Studio } from "./setup";

const DESK = `"""A desk whose writes are logged, so a test can tell whether one ran."""

import json
import time
from pathlib import Path

from quiver import tool

LOG = Path(__file__).with_name("desk.log")


@tool(risk="write")
def write(subject: str) -> str:
    """Write a note.

    Args:
        subject: The note's name.
    """
    with LOG.open("a") as f:
        f.write(json.dumps({"write": subject}) + "\\n")
    return "written"


@tool(concurrent=False)
def slow(seconds: float) -> str:
    """Take a while.

    Args:
        seconds: How long.
    """
    time.sleep(seconds)
    return "slow done"
`;

const BOB = { id: "user-bob", name: "Bob" };

let s: Studio;
const written = () => (fs.existsSync(path.join(s.tree, "desk.log")) ? fs.readFileSync(path.join(s.tree, "desk.log"), "utf8") : "");

/** A model that streams the start of its answer, then holds the rest until the request is aborted. */
async function stallingModel(start: string) {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream" });
    const delta = { role: "assistant", content: start };
    res.write(`data: ${JSON.stringify({ id: "stall", object: "chat.completion.chunk", created: 0, model: "stall", choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

beforeAll(async () => {
  s = await studio("cancel", { "desk.py": DESK });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

describe("stopping a run", () => {
  it("aborts the model's reply as it streams, keeps what it had written, and ends as cancelled", async () => {
    const stalling = await stallingModel("Half of my ans");
    try {
      const agent = await s.agent({ tools: [], model: { provider: "openai-compatible", model: "stall", base_url: stalling.url } });
      const { runId } = await s.runtime.start({ agentId: agent, message: "Tell me everything.", user: ANN });
      await waitForEvent(s.runtime, runId, "delta");
      await s.runtime.cancel(runId, BOB);
      // The stalling model never finishes its reply: the run ends only because the stop cut it.
      const run = await settled(s, runId);
      expect(run).toMatchObject({ status: "cancelled", error: null });
      expect(run.endedAt).not.toBeNull();
      const events = await s.events(runId);
      expect(dataOf(events, "message").at(-1)).toMatchObject({ role: "assistant", text: "Half of my ans", calls: [] });
      expect(dataOf(events, "cancelled")).toEqual([{ by: BOB }]);
      expect(events.at(-1)).toMatchObject({ type: "status", data: { status: "cancelled", error: null } });
    } finally {
      await stalling.close();
    }
  });

  it("refuses a call waiting for approval, which never runs, and takes another message afterwards", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__write", permissions: { desk__write: "ASK" } }] });
    s.model.reply(call("desk__write", { subject: "tea" }), text("Nothing was written."));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Write the note on tea.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");
    expect((await s.runtime.list({ agentId: agent }))[0]).toMatchObject({ status: "waiting", waitingFor: "approval" });

    await s.runtime.cancel(runId, ANN);
    expect((await settled(s, runId)).status).toBe("cancelled");
    await expect(s.runtime.decide(runId, asked.callId, "once", ANN)).rejects.toMatchObject({ kind: "CONFLICT" });
    const events = await s.events(runId);
    expect(dataOf(events, "tool_started")).toEqual([]);
    expect(dataOf(events, "tool_result")).toEqual([expect.objectContaining({ callId: asked.callId, outcome: "refused", attempts: 0 })]);
    expect(dataOf(events, "tool_result")[0]!.text).toMatch(/stopped the run before this call ran, so it did not run/);
    expect(dataOf(events, "cancelled")).toEqual([{ by: ANN }]);
    expect(written()).toBe("");

    await s.runtime.send({ runId, message: "Never mind, just say so.", user: ANN });
    expect((await settled(s, runId)).status).toBe("done");
    const last = s.model.requests.at(-1)!;
    expect(last.body.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(toolMessages(last)[0]!.content).toMatch(/stopped the run before this call ran/);
    expect(dataOf(await s.events(runId), "approval_requested")).toHaveLength(1);
  });

  it("cuts off the call that is running, saying it may have partly run, and never starts the one queued behind it", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__slow,desk__write" }] });
    s.model.reply(calls({ name: "desk__slow", arguments: { seconds: 20 } }, { name: "desk__write", arguments: { subject: "later" } }));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Take your time, then write.", user: ANN });
    await waitForEvent(s.runtime, runId, "tool_started");
    await s.runtime.cancel(runId, ANN);
    expect((await settled(s, runId)).status).toBe("cancelled");
    const events = await s.events(runId);
    const results = dataOf(events, "tool_result");
    const [slow, write] = ["desk__slow", "desk__write"].map((name) => results.find((r) => r.operation === name));
    expect(slow).toMatchObject({ operation: "desk__slow", outcome: "failed", attempts: 1 });
    expect(slow!.text).toMatch(/stopped the run while this call ran or waited on them, so it was cut off/);
    expect(write).toMatchObject({ operation: "desk__write", outcome: "refused", attempts: 0 });
    expect(dataOf(events, "tool_started").map((e) => e.operation)).toEqual(["desk__slow"]);
    expect(written()).toBe("");
  });

  it("closes a question waiting for an answer, which the list shows as waiting for an answer", async () => {
    const agent = await s.agent({ tools: [{ entry: "system:ask_user" }] });
    s.model.reply(call("ask_user", { question: "Which inbox?" }));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Sort my mail.", user: ANN });
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");
    expect((await s.runtime.list({ agentId: agent }))[0]).toMatchObject({ status: "waiting", waitingFor: "question" });
    await s.runtime.cancel(runId, ANN);
    expect((await settled(s, runId)).status).toBe("cancelled");
    const events = await s.events(runId);
    expect(dataOf(events, "question_answered")).toEqual([]);
    expect(dataOf(events, "tool_result")).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect(dataOf(events, "tool_result")[0]!.text).toMatch(/stopped the run instead of answering/);
    expect((await s.runtime.list({ agentId: agent }))[0]).toMatchObject({ status: "cancelled", waitingFor: null });
  });

  it("refuses to stop a run that has ended, with RUN_ENDED and a sentence", async () => {
    const agent = await s.agent({ tools: [] });
    s.model.reply(text("All done."));
    const runId = await s.run(agent);
    await expect(s.runtime.cancel(runId, ANN)).rejects.toMatchObject({
      kind: "CONFLICT",
      reason: "RUN_ENDED",
      message: "This run has already ended, so there is nothing to stop; send a message to continue it.",
    });
    await expect(s.runtime.cancel("00000000-0000-4000-8000-000000000000", ANN)).rejects.toMatchObject({ reason: "NO_SUCH_RUN" });
  });
});

describe("stopping after a restart", () => {
  it("stops a run left waiting for approval from its events, and it takes another message afterwards", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__write", permissions: { desk__write: "ASK" } }] });
    s.model.reply(call("desk__write", { subject: "coffee" }));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Write the note on coffee.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");

    await s.runtime.shutdown();
    await s.database.close();
    s.database = await openDatabase({ dataDir: s.dataDir });
    s.runtime = new Runtime({ db: s.database.db, tree: s.tree, dataDir: s.dataDir, modelRetries: 0 });
    await s.runtime.connect();
    await expect.poll(() => s.runtime.isLive(runId), { timeout: 3_000 }).toBe(true);

    await s.runtime.cancel(runId, ANN);
    await s.runtime.idle(runId);
    expect(s.runtime.isLive(runId)).toBe(false);
    const { run, events } = await s.runtime.get(runId);
    expect(run).toMatchObject({ status: "cancelled", error: null, tokensIn: 10, tokensOut: 5 });
    expect(dataOf(events, "tool_result")).toEqual([expect.objectContaining({ callId: asked.callId, outcome: "refused" })]);
    expect(dataOf(events, "cancelled")).toEqual([{ by: ANN }]);
    expect(events.at(-1)).toMatchObject({ type: "status", data: { status: "cancelled", error: null } });
    await expect(s.runtime.decide(runId, asked.callId, "once", ANN)).rejects.toMatchObject({ reason: "NOT_WAITING" });
    await expect(s.runtime.cancel(runId, ANN)).rejects.toMatchObject({ reason: "RUN_ENDED" });

    s.model.reply(text("Understood."));
    await s.runtime.send({ runId, message: "Leave it.", user: ANN });
    expect((await settled(s, runId)).status).toBe("done");
    expect(written()).toBe("");
  });
});
