// The floor of bench:runs: the same loop with nothing of Quiver's around it. The AI SDK's streamText (the `ai`
// package the studio's runs use, with the same @ai-sdk/openai-compatible provider) asks the same loopback model,
// and its tool calls go through the official MCP SDK's Client (@modelcontextprotocol/sdk, StdioClientTransport) to
// the same Python tool host, started by the same command the studio uses (server/host/command.ts: the same
// sandbox and limits, a work folder of its own): the host speaks MCP over stdio (initialize, tools/list,
// tools/call), so the SDK's Client talks to it as it is. No database, no permissions, no events, no masking.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { dynamicTool, isStepCount, jsonSchema, streamText, type ToolSet } from "ai";
import { hostCommand } from "@/server/host/command";
import type { StepMetrics } from "@/server/runtime/run";

export type Floor = {
  /** The host's pid (bubblewrap's, when sandboxed): the root of the subtree whose CPU and memory are the floor's. */
  pid: number;
  /** One run of `message` against the model named `modelId`, its steps told as the studio's runs tell theirs. */
  run(modelId: string, message: string, onStep: (step: StepMetrics) => void): Promise<void>;
  close(): Promise<void>;
};

/** Times each request of the model from its start to its last byte, as the studio's loop times its own. */
function timed(model: LanguageModelV4, onRequest: (startedAt: number, endedAt: number) => void): LanguageModelV4 {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    doStream: async (options) => {
      const startedAt = performance.now();
      const result = await model.doStream(options);
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({ flush: () => onRequest(startedAt, performance.now()) }),
      );
      return { ...result, stream };
    },
  };
}

export async function startFloor(options: { tree: string; dataDir: string; baseUrl: string; maxSteps: number }): Promise<Floor> {
  const command = await hostCommand(options.tree, { dataDir: options.dataDir });
  const transport = new StdioClientTransport({ command: command.command, args: command.args, cwd: command.cwd, env: command.env, stderr: "inherit" });
  const client = new Client({ name: "quiver-bench-floor", version: "1.0.0" });
  await client.connect(transport);
  const provider = createOpenAICompatible({ name: "floor", baseURL: options.baseUrl, includeUsage: true });
  const { tools: listed } = await client.listTools();

  return {
    pid: transport.pid ?? 0,
    async run(modelId, message, onStep) {
      const requests: { startedAt: number; endedAt: number }[] = [];
      const toolMs: number[] = [];
      const tools: ToolSet = Object.fromEntries(
        listed.map((t) => [
          t.name,
          dynamicTool({
            description: t.description,
            inputSchema: jsonSchema(t.inputSchema as Parameters<typeof jsonSchema>[0]),
            execute: async (args) => {
              const started = performance.now();
              const result = await client.callTool({ name: t.name, arguments: args as Record<string, unknown> });
              toolMs.push(performance.now() - started);
              const content = (result.content ?? []) as { type: string; text?: string }[];
              return content.flatMap((part) => (part.type === "text" ? [part.text ?? ""] : [])).join("\n");
            },
          }),
        ]),
      );
      const model = timed(provider.chatModel(modelId) as LanguageModelV4, (startedAt, endedAt) => requests.push({ startedAt, endedAt }));
      const result = streamText({ model, tools, prompt: message, maxRetries: 0, stopWhen: isStepCount(options.maxSteps) });
      await result.consumeStream({ onError: (error) => { throw error; } });
      await result.text;
      // A step is one model reply and its call, from the request to the next request (as the studio's loop counts
      // it: its result handed back included); the final reply, which calls nothing, is no step.
      for (let i = 0; i + 1 < requests.length; i++) {
        const [now, next] = [requests[i]!, requests[i + 1]!];
        onStep({ runId: "floor", step: i + 1, ms: next.startedAt - now.startedAt, modelMs: now.endedAt - now.startedAt, toolMs: toolMs[i] ?? 0, calls: 1 });
      }
    },
    close: () => client.close(),
  };
}
