// A small OpenAI Responses API server on 127.0.0.1 (POST /v1/responses, streamed as SSE the way @ai-sdk/openai
// reads it), for tests of what a run sends an OpenAI model that the chat-completions loopback cannot see: the
// provider's own tools in the request's `tools`. Each reply is text, optionally after a web search the "provider"
// ran itself (a web_search_call item), and every request is recorded.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ResponsesReply = { text: string; searched?: string };

export type ResponsesRequest = { body: { model: string; tools?: Array<Record<string, unknown>>; input: unknown[]; [key: string]: unknown }; headers: http.IncomingHttpHeaders };

export type LoopbackResponses = {
  /** The base URL to give the provider, ending in /v1. */
  url: string;
  requests: ResponsesRequest[];
  reply(...replies: ResponsesReply[]): void;
  close(): Promise<void>;
};

let ids = 0;

function events(reply: ResponsesReply, model: string): unknown[] {
  const id = `resp_${++ids}`;
  const created = Math.floor(Date.now() / 1000);
  const out: unknown[] = [{ type: "response.created", response: { id, created_at: created, model } }];
  let index = 0;
  if (reply.searched !== undefined) {
    const search = { type: "web_search_call", id: `ws_${ids}`, status: "completed", action: { type: "search", query: reply.searched } };
    out.push({ type: "response.output_item.added", output_index: index, item: { type: "web_search_call", id: search.id, status: "in_progress" } });
    out.push({ type: "response.output_item.done", output_index: index, item: search });
    index++;
  }
  const message = `msg_${ids}`;
  out.push({ type: "response.output_item.added", output_index: index, item: { type: "message", id: message } });
  out.push({ type: "response.output_text.delta", item_id: message, output_index: index, content_index: 0, delta: reply.text });
  out.push({
    type: "response.output_item.done",
    output_index: index,
    item: { type: "message", id: message, role: "assistant", status: "completed", content: [{ type: "output_text", text: reply.text, annotations: [] }] },
  });
  out.push({ type: "response.completed", response: { id, status: "completed", incomplete_details: null, usage: { input_tokens: 10, output_tokens: 5 } } });
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

export async function startLoopbackResponses(): Promise<LoopbackResponses> {
  const queue: ResponsesReply[] = [];
  const requests: ResponsesRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const fail = (status: number, message: string) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message, type: "server_error", code: status } }));
    };
    if (req.method !== "POST" || !req.url?.endsWith("/responses")) return fail(404, `Nothing at ${req.method} ${req.url}.`);
    const body = JSON.parse(raw) as ResponsesRequest["body"];
    requests.push({ body, headers: req.headers });
    const reply = queue.shift();
    if (!reply) return fail(500, "The loopback model has no reply scripted for this request.");
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(events(reply, body.model).map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    reply: (...replies) => queue.push(...replies),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
