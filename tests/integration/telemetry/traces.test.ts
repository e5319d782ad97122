// Run traces sent over OTLP to a receiver the test starts (R-otel-on, R-otel-spans, R-otel-content): the span tree of
// a run, its GenAI attributes, error.type on what failed, the service name the SDK's variables give, tool arguments
// and results present because QUIVER_OTEL_CONTENT=1, and no secret value anywhere in what was sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Studio } from "@/tests/integration/runtime/setup";
import { call, text } from "@/tests/support/loopback-model";
import { startReceiver, TOKEN, tracedStudio, type Receiver, type Span } from "./receiver";

let receiver: Receiver;
let s: Studio;
let agent: string;
let flush: () => Promise<void>;

beforeAll(async () => {
  receiver = await startReceiver();
  ({ s, agent, flush } = await tracedStudio("traces", {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_SERVICE_NAME: "quiver-traces-test",
    QUIVER_OTEL_CONTENT: "1",
  }));
}, 120_000);

afterAll(async () => {
  await s?.close();
  await receiver?.close();
});

/** The spans of one run's trace, once exported: its invoke_agent span and everything under it. */
async function traceOf(runId: string): Promise<{ root: Span; spans: Span[] }> {
  await flush();
  const root = receiver.spans().find((sp) => sp.attributes["gen_ai.conversation.id"] === runId && sp.attributes["gen_ai.operation.name"] === "invoke_agent");
  expect(root, `no invoke_agent span for run ${runId}`).toBeDefined();
  return { root: root!, spans: receiver.spans().filter((sp) => sp.traceId === root!.traceId) };
}

describe("run traces", () => {
  it("R-otel-spans: one invoke_agent span per run, a chat span per model call with its tokens, an execute_tool span per call, under it", async () => {
    s.model.reply(call("box__echo", { words: "hello there" }, "call-echo"), call("service__whoami", {}, "call-who"), text("done", { usage: { prompt_tokens: 21, completion_tokens: 4 } }));
    const runId = await s.run(agent);
    const { root, spans } = await traceOf(runId);

    expect(root.parent).toBeNull();
    expect(root.name).toMatch(/^invoke_agent agent \d+$/);
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": agent,
      "gen_ai.agent.name": expect.stringMatching(/^agent \d+$/),
      "gen_ai.request.model": "loopback",
      "gen_ai.provider.name": "openai-compatible",
      "gen_ai.usage.input_tokens": 10 + 10 + 21,
      "gen_ai.usage.output_tokens": 5 + 5 + 4,
      "quiver.run.status": "done",
    });
    expect(root.attributes["error.type"]).toBeUndefined();
    expect(root.resource["service.name"]).toBe("quiver-traces-test");

    const chats = spans.filter((sp) => sp.attributes["gen_ai.operation.name"] === "chat");
    expect(chats.map((c) => c.name)).toEqual(["chat loopback", "chat loopback", "chat loopback"]);
    for (const c of chats) {
      expect(c.parent).toBe(root.spanId);
      expect(c.kind).toBe(3); // CLIENT, as OTLP numbers span kinds
      expect(c.attributes["gen_ai.request.model"]).toBe("loopback");
    }
    expect(chats.map((c) => [c.attributes["gen_ai.usage.input_tokens"], c.attributes["gen_ai.usage.output_tokens"]])).toEqual([[10, 5], [10, 5], [21, 4]]);

    const tools = spans.filter((sp) => sp.attributes["gen_ai.operation.name"] === "execute_tool");
    expect(tools.map((t) => [t.name, t.attributes["gen_ai.tool.name"], t.attributes["gen_ai.tool.call.id"]])).toEqual([
      ["execute_tool box__echo", "box__echo", "call-echo"],
      ["execute_tool service__whoami", "service__whoami", "call-who"],
    ]);
    for (const t of tools) {
      expect(t.parent).toBe(root.spanId);
      expect(t.attributes["error.type"]).toBeUndefined();
    }
    expect(spans).toHaveLength(1 + 3 + 2);
  });

  it("R-otel-content: with QUIVER_OTEL_CONTENT=1 arguments and results are on the spans, masked, and no secret value is anywhere in the export", async () => {
    s.model.reply(call("box__echo", { words: "kept words" }, "call-a"), call("service__whoami", {}, "call-b"), text("done"));
    const runId = await s.run(agent);
    const { spans } = await traceOf(runId);
    const tool = (id: string) => spans.find((sp) => sp.attributes["gen_ai.tool.call.id"] === id)!;
    expect(JSON.parse(tool("call-a").attributes["gen_ai.tool.call.arguments"] as string)).toEqual({ words: "kept words" });
    expect(tool("call-a").attributes["gen_ai.tool.call.result"]).toBe("kept words");
    expect(tool("call-b").attributes["gen_ai.tool.call.result"]).toBe("token=*** b64=***");
    const chat = spans.find((sp) => sp.attributes["gen_ai.operation.name"] === "chat")!;
    expect(JSON.parse(chat.attributes["gen_ai.output.messages"] as string)).toEqual([
      { role: "assistant", parts: [{ type: "tool_call", id: "call-a", name: "box__echo", arguments: JSON.stringify({ words: "kept words" }) }] },
    ]);

    const everything = receiver.bodies.join("\n");
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(Buffer.from(TOKEN).toString("base64"));
  });

  it("R-otel-spans: a call a running tool made through ctx.system is a span under that tool's span", async () => {
    s.model.reply(call("box__remember", { key: "tz", value: "UTC" }, "call-outer"), text("done"));
    const runId = await s.run(agent);
    const { root, spans } = await traceOf(runId);
    const outer = spans.find((sp) => sp.attributes["gen_ai.tool.call.id"] === "call-outer")!;
    const nested = spans.find((sp) => sp.attributes["gen_ai.tool.name"] === "memory_set")!;
    expect(outer.parent).toBe(root.spanId);
    expect(nested.name).toBe("execute_tool memory_set");
    expect(nested.parent).toBe(outer.spanId);
    expect(nested.attributes["quiver.tool.outcome"]).toBe("ok");
  });

  it("R-otel-spans: a failed call, a refused call and a failed run carry error.type", async () => {
    s.model.reply(call("box__crash", { reason: "on purpose" }, "call-crash"), call("no_such_tool", {}, "call-none"), { status: 400, message: "the model is not in the mood" });
    const runId = await s.run(agent);
    const { root, spans } = await traceOf(runId);
    const crash = spans.find((sp) => sp.attributes["gen_ai.tool.call.id"] === "call-crash")!;
    expect(crash.attributes["error.type"]).toBe("failed");
    expect(crash.status).toBe(2); // ERROR
    const none = spans.find((sp) => sp.attributes["gen_ai.tool.call.id"] === "call-none")!;
    expect(none.attributes["error.type"]).toBe("refused");
    const chats = spans.filter((sp) => sp.attributes["gen_ai.operation.name"] === "chat");
    expect(chats).toHaveLength(3);
    expect(chats[2]!.attributes["error.type"]).toBe("ModelProblem");
    expect(chats[2]!.status).toBe(2);
    expect(root.attributes["quiver.run.status"]).toBe("failed");
    expect(root.attributes["error.type"]).toBe("ModelProblem");
    expect(root.status).toBe(2);
  });
});
