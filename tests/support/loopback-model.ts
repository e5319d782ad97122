// A small OpenAI-compatible chat-completions server on 127.0.0.1 that the tests start: each test scripts what the
// "model" answers (text, tool calls, parallel calls, damaged arguments, wrong names, HTTP errors), streamed as SSE
// or whole, the way @ai-sdk/openai-compatible reads them, and every request is recorded so a test can assert what
// the model was sent (its tool list; that no secret or setting was in it). It also lists its models (GET /v1/models)
// and answers a one-token request (a model connection's Test) itself, so neither takes a scripted reply.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedCall = {
  name: string;
  /** Sent as written when a string (so it may be damaged or cut off); JSON-encoded otherwise. */
  arguments: string | Record<string, unknown>;
  id?: string;
};

export type ScriptedReply =
  /** `paceMs`: streamed with that pause between pieces, so a test sees them arrive one by one. */
  | { text: string; delayMs?: number; usage?: Usage; paceMs?: number }
  | { toolCalls: ScriptedCall[]; text?: string; finish?: "tool_calls" | "length" | "stop"; delayMs?: number; usage?: Usage; paceMs?: number }
  | { status: number; message: string; delayMs?: number; headers?: Record<string, string> };

export type Usage = { prompt_tokens: number; completion_tokens: number };

/** A reply, or a function of the request that makes one (for replies that depend on the conversation). */
export type Reply = ScriptedReply | ((request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>);

export type ChatMessage = {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};

export type RecordedRequest = {
  /** The raw body as sent: what a test searches for secrets. */
  raw: string;
  body: {
    model: string;
    stream?: boolean;
    messages: ChatMessage[];
    tools?: { type: string; function: { name: string; description?: string; parameters: Record<string, unknown> } }[];
    [key: string]: unknown;
  };
  headers: http.IncomingHttpHeaders;
  /** When the request arrived and when its answer was finished (performance.now()). */
  receivedAt: number;
  answeredAt: number | null;
  /** When the first piece of the reply's text was written to the socket, for a streamed reply with text. */
  firstTextAt: number | null;
};

export type LoopbackModel = {
  /** The base URL to give the provider, ending in /v1. */
  url: string;
  requests: RecordedRequest[];
  /** Queue replies, answered in order, one per request. */
  reply(...replies: Reply[]): void;
  /** What to answer when the queue is empty (default: an HTTP 500 saying nothing was scripted). */
  fallback: Reply | null;
  /** Refuse requests whose bearer key differs (401), when set. */
  expectKey: string | null;
  /** The ids GET /v1/models lists. */
  models: string[];
  /** The one-token requests answered without a script (a connection's Test), apart from `requests`. */
  probes: RecordedRequest[];
  /** Replies still queued. */
  pending(): number;
  /** Drop the queued replies (and the fallback): a fresh script for the next test. */
  reset(): void;
  close(): Promise<void>;
};

export type LoopbackOptions = {
  /** Characters per streamed piece of text or arguments (default 8). */
  chunk?: number;
};

export const text = (words: string, extra: Partial<Extract<ScriptedReply, { text: string }>> = {}): ScriptedReply => ({ text: words, ...extra });

export const call = (name: string, args: ScriptedCall["arguments"] = {}, id?: string): ScriptedReply => ({ toolCalls: [{ name, arguments: args, id }] });

export const calls = (...list: ScriptedCall[]): ScriptedReply => ({ toolCalls: list });

export const failure = (status: number, message: string, headers?: Record<string, string>): ScriptedReply => ({ status, message, headers });

let ids = 0;

/** What the stub lists unless a test says otherwise. */
export const LISTED = ["loopback-large", "loopback-small"] as const;

function pieces(value: string, size: number): string[] {
  if (value === "") return [""];
  const out: string[] = [];
  for (let i = 0; i < value.length; i += size) out.push(value.slice(i, i + size));
  return out;
}

function argumentsText(args: ScriptedCall["arguments"]): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

function usageOf(reply: ScriptedReply): Usage {
  return "usage" in reply && reply.usage ? reply.usage : { prompt_tokens: 10, completion_tokens: 5 };
}

function finishOf(reply: Exclude<ScriptedReply, { status: number }>): string {
  if ("toolCalls" in reply) return reply.finish ?? "tool_calls";
  return "stop";
}

function whole(reply: Exclude<ScriptedReply, { status: number }>, model: string) {
  const usage = usageOf(reply);
  const toolCalls = "toolCalls" in reply ? reply.toolCalls : [];
  return {
    id: `chatcmpl-${++ids}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? null,
          tool_calls: toolCalls.length
            ? toolCalls.map((c, i) => ({ id: c.id ?? `call_${ids}_${i}`, type: "function", function: { name: c.name, arguments: argumentsText(c.arguments) } }))
            : undefined,
        },
        finish_reason: finishOf(reply),
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** The chunks of a streamed answer, as OpenAI's chat completions stream them. */
function chunks(reply: Exclude<ScriptedReply, { status: number }>, model: string, size: number, withUsage: boolean): unknown[] {
  const id = `chatcmpl-${++ids}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  const out: unknown[] = [chunk({ role: "assistant", content: "" })];
  if (reply.text) for (const piece of pieces(reply.text, size)) out.push(chunk({ content: piece }));
  if ("toolCalls" in reply) {
    reply.toolCalls.forEach((c, index) => {
      const [first = "", ...rest] = pieces(argumentsText(c.arguments), size);
      out.push(chunk({ tool_calls: [{ index, id: c.id ?? `call_${id}_${index}`, type: "function", function: { name: c.name, arguments: first } }] }));
      for (const piece of rest) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  }
  out.push(chunk({}, finishOf(reply)));
  if (withUsage) {
    const usage = usageOf(reply);
    out.push({ id, object: "chat.completion.chunk", created, model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
  }
  return out;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startLoopbackModel(options: LoopbackOptions = {}): Promise<LoopbackModel> {
  const size = options.chunk ?? 8;
  const queue: Reply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();

  const model: LoopbackModel = {
    url: "",
    requests,
    reply: (...replies) => queue.push(...replies),
    fallback: null,
    expectKey: null,
    models: [...LISTED],
    probes: [],
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      model.fallback = null;
      model.expectKey = null;
      model.models = [...LISTED];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const error = (status: number, message: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify({ error: { message, type: status === 401 ? "invalid_request_error" : "server_error", code: status } }));
    };
    const keyed = model.expectKey === null || req.headers.authorization === `Bearer ${model.expectKey}`;
    if (req.method === "GET" && req.url?.split("?")[0]!.endsWith("/v1/models")) {
      if (!keyed) return error(401, "Incorrect API key provided.");
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: model.models.map((id) => ({ id, object: "model", created: 0, owned_by: "loopback" })) }));
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) return error(404, `Nothing at ${req.method} ${req.url}.`);
    let body: RecordedRequest["body"];
    try {
      body = JSON.parse(raw) as RecordedRequest["body"];
    } catch {
      return error(400, "The body is not JSON.");
    }
    const recorded: RecordedRequest = { raw, body, headers: req.headers, receivedAt: performance.now(), answeredAt: null, firstTextAt: null };
    if (body.max_tokens === 1 && !body.stream && !body.tools && keyed) {
      model.probes.push(recorded);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(whole({ text: "OK", usage: { prompt_tokens: 5, completion_tokens: 1 } }, body.model)));
      recorded.answeredAt = performance.now();
      return;
    }
    requests.push(recorded);
    if (!keyed) {
      recorded.answeredAt = performance.now();
      return error(401, "Incorrect API key provided.");
    }
    const next = queue.shift() ?? model.fallback;
    if (!next) return error(500, "The loopback model has no reply scripted for this request.");
    const reply = typeof next === "function" ? await next(recorded) : next;
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if ("status" in reply) {
      recorded.answeredAt = performance.now();
      return error(reply.status, reply.message, reply.headers);
    }
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(whole(reply, body.model)));
      recorded.answeredAt = performance.now();
      return;
    }
    const withUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const lines = chunks(reply, body.model, size, withUsage).map((c) => `data: ${JSON.stringify(c)}\n\n`);
    // The chunk after the role's is the first piece of text, when the reply has any.
    const firstText = reply.text ? 1 : -1;
    if (reply.paceMs) {
      for (const [i, line] of lines.entries()) {
        res.write(line);
        if (i === firstText) recorded.firstTextAt = performance.now();
        await new Promise((r) => setTimeout(r, reply.paceMs));
      }
      res.end("data: [DONE]\n\n");
    } else {
      res.end(lines.join("") + "data: [DONE]\n\n");
      if (firstText > 0) recorded.firstTextAt = performance.now();
    }
    recorded.answeredAt = performance.now();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  model.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
}

/** The tool names a request offered the model, in order. */
export function offeredTools(request: RecordedRequest): string[] {
  return (request.body.tools ?? []).map((t) => t.function.name);
}

/** The tool messages of a request: what the model was told each call answered. */
export function toolMessages(request: RecordedRequest): { id: string; content: string }[] {
  return request.body.messages.filter((m) => m.role === "tool").map((m) => ({ id: m.tool_call_id ?? "", content: typeof m.content === "string" ? m.content : JSON.stringify(m.content) }));
}
