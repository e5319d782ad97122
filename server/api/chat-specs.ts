// The OpenAI-compatible routes as the edge checks them and the API document lists them (edge.ts's RouteSpec): POST
// /api/v1/chat/completions and GET /api/v1/models. Kept apart from their handlers so the document reads no runtime.
import { z } from "zod";
import { chatBody } from "./chat-schema";
import type { RouteSpec } from "./edge";

const usage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() });

const completion = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal("assistant"), content: z.string(), refusal: z.null() }),
      finish_reason: z.literal("stop"),
    }),
  ),
  usage,
});

export const chatCompletionsSpec = {
  method: "post",
  path: "/api/v1/chat/completions",
  scope: "run",
  tag: "Chat",
  operationId: "createChatCompletion",
  summary: "Run an agent as an OpenAI-compatible chat model",
  description:
    "OpenAI's Chat Completions request, with `model` the agent's id or name and the whole conversation in `messages` " +
    "(a system message is told after the agent's instructions). Each request is a run, its id in the x-quiver-run-id " +
    "header; the agent's tools run inside the studio and are never returned as tool calls, and the client's own tools " +
    "are refused. With `stream: true` the answer is chat.completion.chunk events as the model writes, SSE comments " +
    "while the run waits for an approval (up to the key's wait limit), then `data: [DONE]`.",
  body: chatBody,
  ok: { status: 200, description: "The agent's answer: whole, or as server-sent events when streaming.", schema: completion },
  errors: [{ status: 404, description: "No agent of that id or name that the key may use." }],
  example: { path: "/api/v1/chat/completions", body: { model: "triage", messages: [{ role: "user", content: "Sort today's inbox." }], stream: true } },
} satisfies RouteSpec;

const model = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
  /** The agent's name: what `model` may be instead of the id. */
  name: z.string(),
});

export const modelsSpec = {
  method: "get",
  path: "/api/v1/models",
  scope: ["run", "read"],
  tag: "Chat",
  operationId: "listModels",
  summary: "The agents this key may use, as OpenAI models",
  description:
    "OpenAI's model list: one model per agent the key may use, its id the agent's id and its name the agent's name " +
    "(either may be a chat completion's `model`).",
  ok: { status: 200, description: "The agents, by name.", schema: z.object({ object: z.literal("list"), data: z.array(model) }) },
  example: { path: "/api/v1/models" },
} satisfies RouteSpec;

export const CHAT_ROUTES: readonly RouteSpec[] = [chatCompletionsSpec, modelsSpec];
