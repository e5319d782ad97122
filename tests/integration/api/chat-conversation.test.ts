// A run started from a whole conversation, as the OpenAI-compatible endpoint starts one: the earlier turns become
// the run's first messages, the client's system text is told after the agent's instructions, and both survive
// the run being rebuilt from its events to take another message.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { text } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, type Studio } from "../runtime/setup";

let s: Studio;

beforeAll(async () => {
  s = await studio("chat-conversation", {});
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

const PRIOR = [
  { role: "user" as const, text: "My name is Ada." },
  { role: "assistant" as const, text: "Hello Ada." },
];

describe("a run started from a conversation", () => {
  it("sends the model the agent's instructions, then the client's system text, then the earlier turns and the new message", async () => {
    const agentId = await s.agent({ instructions: "You are the front desk.", tools: [] });
    s.model.reply(text("You are Ada."));
    const { runId } = await s.runtime.start({ agentId, message: "What is my name?", user: ANN, prior: PRIOR, system: "Answer in one line." });
    expect((await settled(s, runId)).status).toBe("done");

    const messages = s.model.requests.at(-1)!.body.messages;
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(messages[0]!.content).toBe("You are the front desk.\n\nAnswer in one line.");
    expect(JSON.stringify(messages[2]!.content)).toContain("Hello Ada.");
    expect(JSON.stringify(messages[3]!.content)).toContain("What is my name?");
  });

  it("stores the earlier turns as messages marked prior, and the client's system text with the run's start", async () => {
    const agentId = await s.agent({ instructions: "You are the front desk.", tools: [] });
    s.model.reply(text("You are Ada.", { usage: { prompt_tokens: 30, completion_tokens: 4 } }));
    const { runId } = await s.runtime.start({ agentId, message: "What is my name?", user: ANN, prior: PRIOR, system: "Answer in one line." });
    const run = await settled(s, runId);
    const events = await s.events(runId);

    expect(dataOf(events, "run_started")[0]!.system).toBe("Answer in one line.");
    const messages = dataOf(events, "message");
    expect(messages.map((m) => [m.role, m.text, m.prior ?? false])).toEqual([
      ["user", "My name is Ada.", true],
      ["assistant", "Hello Ada.", true],
      ["user", "What is my name?", false],
      ["assistant", "You are Ada.", false],
    ]);
    // Only what the model said in this run counts as the run's tokens.
    expect([run.tokensIn, run.tokensOut]).toEqual([30, 4]);
  });

  it("keeps the client's system text after the instructions and the earlier turns when the run takes another message", async () => {
    const agentId = await s.agent({ instructions: "You are the front desk.", tools: [] });
    s.model.reply(text("You are Ada."), text("Goodbye Ada."));
    const { runId } = await s.runtime.start({ agentId, message: "What is my name?", user: ANN, prior: PRIOR, system: "Answer in one line." });
    await settled(s, runId);
    await s.runtime.send({ runId, message: "Bye.", user: ANN });
    expect((await settled(s, runId)).status).toBe("done");

    const messages = s.model.requests.at(-1)!.body.messages;
    expect(messages[0]).toEqual({ role: "system", content: "You are the front desk.\n\nAnswer in one line." });
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
  });

  it("never lets the client's system text stand in for the instructions: without it the prompt is the agent's alone", async () => {
    const agentId = await s.agent({ instructions: "You are the front desk.", tools: [] });
    s.model.reply(text("Hi."));
    const { runId } = await s.runtime.start({ agentId, message: "Hi.", user: ANN, system: "   " });
    await settled(s, runId);
    expect(s.model.requests.at(-1)!.body.messages[0]).toEqual({ role: "system", content: "You are the front desk." });
    expect(dataOf(await s.events(runId), "run_started")[0]!.system).toBeUndefined();
  });
});
