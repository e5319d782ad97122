// ask_user waits an hour for its answer (R-ask-hour), through the real loop and loopback model, with the hour made
// short for the test: past it the question closes unanswered and the model is told to proceed on the most likely
// reading and say so; an answer within it is the answer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { Runtime } from "@/server/runtime";
import { NO_ANSWER } from "@/server/system/ask-user";
import { call, text, toolMessages } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, sleep, studio, waitForEvent, type Studio } from "./setup";

let s: Studio;

beforeAll(async () => {
  s = await studio("ask-hour", {}, { askUserMs: 400 });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

describe("ask_user's bound", () => {
  it("R-ask-hour: a question nobody answers within its bound closes, and the model proceeds on the likeliest reading", async () => {
    const agent = await s.agent({ tools: [{ entry: "system:ask_user" }] });
    s.model.reply(call("ask_user", { question: "Which branch?", choices: ["main", "dev"] }), text("Assuming main."));
    const started = performance.now();
    const runId = await s.run(agent);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    expect(dataOf(events, "question_answered")).toMatchObject([{ answer: null, expired: true }]);
    expect(dataOf(events, "tool_result")).toMatchObject([{ outcome: "ok", text: NO_ANSWER }]);
    expect(toolMessages(s.model.requests.at(-1)!).map((m) => m.content)).toEqual([NO_ANSWER]);
  });

  it("R-ask-hour: an answer within the bound is the answer, and the bound lets go", async () => {
    const agent = await s.agent({ tools: [{ entry: "system:ask_user" }] });
    s.model.reply(call("ask_user", { question: "Which branch?" }), text("On dev."));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "question_asked");
    await s.runtime.answer(runId, asked.callId, "dev", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    expect(dataOf(events, "question_answered")).toMatchObject([{ answer: "dev" }]);
    expect(dataOf(events, "question_answered")[0]).not.toHaveProperty("expired");
    expect(dataOf(events, "tool_result")).toMatchObject([{ outcome: "ok", text: "The user answered: dev" }]);
  });

  it("R-ask-hour: after a restart the bound counts from when the question was put, not from the restart", async () => {
    const agent = await s.agent({ tools: [{ entry: "system:ask_user" }] });
    s.model.reply(call("ask_user", { question: "Which branch?" }), text("Assuming main."));
    await s.runtime.shutdown();
    s.runtime = new Runtime({ db: s.database.db, tree: s.tree, dataDir: s.dataDir, modelRetries: 0, askUserMs: 4_000 });
    await s.runtime.connect();
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    await waitForEvent(s.runtime, runId, "question_asked");
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");
    await s.runtime.shutdown();
    await s.database.close();
    await sleep(2_500);
    s.database = await openDatabase({ dataDir: s.dataDir });
    s.runtime = new Runtime({ db: s.database.db, tree: s.tree, dataDir: s.dataDir, modelRetries: 0, askUserMs: 4_000 });
    const back = performance.now();
    await s.runtime.connect();
    expect((await settled(s, runId)).status).toBe("done");
    // About 1.5 s were left of the 4 s bound; a bound restarted at the restart would take the whole 4 s.
    expect(performance.now() - back).toBeLessThan(3_500);
    const events = await s.events(runId);
    expect(dataOf(events, "question_asked")).toHaveLength(1);
    expect(dataOf(events, "question_answered")).toMatchObject([{ answer: null, expired: true }]);
    expect(dataOf(events, "tool_result")).toMatchObject([{ outcome: "ok", text: NO_ANSWER }]);
  });
});
