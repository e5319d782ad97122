// A tool's images as the providers that take them inside the tool result receive them (OpenAI's Responses API,
// Anthropic's messages): the run's prompt turned into each request body by the provider openModel opens. The
// chat-completions path, which sends them in a user message after, is held by the runtime's integration tests.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { afterEach, describe, expect, it, vi } from "vitest";
import { declarationSchema } from "@/server/agents/declaration";
import { openModel } from "@/server/models/open";
import { toPrompt } from "./prompt";
import { Run, type Entry } from "./run";

const PNG = Buffer.from("\x89PNG\r\n\x1a\nfake-png-bytes", "latin1").toString("base64");

const TRANSCRIPT: Entry[] = [
  { kind: "user", text: "Show me the dot." },
  { kind: "assistant", text: "", calls: [{ callId: "call_1", name: "box__picture", input: {} }] },
  {
    kind: "results",
    results: [
      {
        callId: "call_1",
        name: "box__picture",
        operation: "picture",
        outcome: "ok",
        text: "a red dot",
        images: [{ mimeType: "image/png", data: PNG }],
        truncated: null,
        durationMs: 1,
        attempts: 1,
        deduped: false,
      },
    ],
  },
];

function promptFor(provider: "openai" | "anthropic"): LanguageModelV4Prompt {
  const declaration = declarationSchema.parse({ name: "viewer", model: { provider, model: "a-model" } });
  const catalog = { tools: [], operations: [], withheld: [], problems: [] };
  const run = new Run("run-1", { id: "agent-1", name: "viewer", version: 1 }, declaration, "user-ann", catalog, {} as Run["deps"]);
  run.transcript = TRANSCRIPT;
  return toPrompt(run);
}

/** The JSON body the provider would send for the prompt; the request itself is answered with a refusal. */
async function bodySent(provider: "openai" | "anthropic"): Promise<Record<string, unknown>> {
  const bodies: string[] = [];
  vi.stubGlobal("fetch", async (_url: unknown, init?: RequestInit) => {
    bodies.push(String(init?.body));
    return new Response(JSON.stringify({ error: { type: "invalid_request_error", message: "not sent anywhere" } }), {
      status: 400,
      headers: { "content-type": "application/json" },
    });
  });
  const model = openModel({ provider, model: "a-model" }, "sk-test");
  await Promise.resolve(model.doStream({ prompt: promptFor(provider) })).catch(() => undefined);
  expect(bodies).toHaveLength(1);
  return JSON.parse(bodies[0]!) as Record<string, unknown>;
}

afterEach(() => vi.unstubAllGlobals());

describe("a tool's images in the tool result", () => {
  it("reach OpenAI as an input image of the call's output, after its text", async () => {
    const body = await bodySent("openai");
    const output = (body.input as { type?: string; output?: unknown }[]).find((item) => item.type === "function_call_output");
    expect(output?.output).toEqual([
      { type: "input_text", text: "a red dot" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
    ]);
  });

  it("reach Anthropic as a base64 image block inside the tool result, after its text", async () => {
    const body = await bodySent("anthropic");
    const blocks = (body.messages as { content: { type: string; content?: unknown }[] }[]).flatMap((m) => m.content);
    const result = blocks.find((block) => block.type === "tool_result");
    expect(result?.content).toEqual([
      { type: "text", text: "a red dot" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
    ]);
  });
});
