// A chat completion's body as a run's start (R-api-chat-conversation, R-api-chat-tools): what becomes the earlier
// turns, the client's system text and the new message, and what is refused with which sentence.
import { describe, expect, it } from "vitest";
import { DomainError } from "@/server/errors";
import { chatBody, conversationOf } from "./chat-schema";

const conversation = (body: Record<string, unknown>) => conversationOf(chatBody.parse({ model: "triage", ...body }));

function refusal(body: Record<string, unknown>): string {
  try {
    conversation(body);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
  throw new Error("the body was taken");
}

describe("the conversation a run starts from", () => {
  it("takes the last user message as the run's message and the turns before it as prior, in order", () => {
    const got = conversation({
      messages: [
        { role: "user", content: "One." },
        { role: "assistant", content: "Two." },
        { role: "user", content: [{ type: "text", text: "Three" }, { type: "text", text: "and four." }] },
      ],
    });
    expect(got).toEqual({ prior: [{ role: "user", text: "One." }, { role: "assistant", text: "Two." }], message: "Three\nand four.", system: null });
  });

  it("joins every system and developer message, wherever it stands, into the client's system text", () => {
    const got = conversation({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi." },
        { role: "developer", content: "Use British spelling." },
        { role: "user", content: "Colour?" },
      ],
    });
    expect(got.system).toBe("Be brief.\n\nUse British spelling.");
    expect(got.prior).toEqual([{ role: "user", text: "Hi." }]);
  });

  it("leaves out an assistant turn that said nothing", () => {
    const got = conversation({ messages: [{ role: "user", content: "Hi." }, { role: "assistant", content: null }, { role: "user", content: "Again." }] });
    expect(got.prior).toEqual([{ role: "user", text: "Hi." }]);
  });

  it("ignores the sampling parameters, which are the builder's", () => {
    expect(conversation({ messages: [{ role: "user", content: "Hi." }], temperature: 0.2, max_tokens: 10, tools: [], n: 1 }).message).toBe("Hi.");
  });
});

describe("refusals", () => {
  it("refuses the client's tools and functions, and a tool_choice other than none or auto", () => {
    expect(refusal({ messages: [{ role: "user", content: "Hi." }], functions: [{ name: "f" }] })).toMatch(/^functions was sent, but an agent's tools/);
    expect(refusal({ messages: [{ role: "user", content: "Hi." }], tool_choice: { type: "function", function: { name: "f" } } })).toMatch(/^tool_choice was sent/);
    expect(conversation({ messages: [{ role: "user", content: "Hi." }], tool_choice: "none" }).message).toBe("Hi.");
  });

  it("refuses an assistant message holding tool calls", () => {
    expect(refusal({ messages: [{ role: "user", content: "Hi." }, { role: "assistant", content: null, tool_calls: [{ id: "c" }] }, { role: "user", content: "Go." }] })).toBe(
      "messages[1] holds tool_calls, but the agent's tool calls stay inside the studio; send the assistant's text only.",
    );
  });

  it("refuses more than one choice, an unknown role, an empty user message and a conversation without a user message last", () => {
    expect(refusal({ messages: [{ role: "user", content: "Hi." }], n: 2 })).toBe("n is 2, but a run gives one answer; send n as 1 or leave it out.");
    expect(refusal({ messages: [{ role: "narrator", content: "Once." }] })).toBe("messages[0].role is “narrator”; send system, user or assistant.");
    expect(refusal({ messages: [{ role: "user", content: "  " }] })).toBe("messages[0] is an empty user message; write something for the agent.");
    expect(refusal({ messages: [{ role: "system", content: "Be brief." }] })).toMatch(/^The conversation does not end with a user message/);
  });

  it("refuses text the database cannot hold at the edge, naming the field", () => {
    const parsed = chatBody.safeParse({ model: "triage", messages: [{ role: "user", content: "a\u0000b" }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(["messages", 0, "content"]);
  });
});
