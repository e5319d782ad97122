// A Streamable HTTP MCP server in the test's own process, on 127.0.0.1, written with the official SDK's web-standard
// transport: it records the headers of every request it gets (so a test sees what a ${SECRET} header became), can
// forget its sessions (as a restarted server does, answering 404 to the old id), and offers a tool that says
// which Authorization header it got.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

export type Recording = {
  url: string;
  /** Every request's headers, in order. */
  headers: http.IncomingHttpHeaders[];
  /** How many sessions were opened (initialize requests served). */
  sessionsOpened(): number;
  /** Forget every session: the next request on an old id is answered 404. */
  forgetSessions(): void;
  close(): Promise<void>;
};

/** `authorization` reads the header of the request being served: what a careless server might echo back. */
function mcpServer(authorization: () => string): McpServer {
  const server = new McpServer({ name: "quiver-recording", version: "1.0.0" });
  server.registerTool("whoami", { description: "Say which Authorization header the request carried." }, async () => ({
    content: [{ type: "text", text: `You sent: ${authorization()}` }],
  }));
  return server;
}

async function body(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function send(res: http.ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    res.write(value);
  }
  res.end();
}

export async function recordingServer(): Promise<Recording> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const headers: http.IncomingHttpHeaders[] = [];
  let opened = 0;
  const server = http.createServer(async (req, res) => {
    headers.push(req.headers);
    const raw = await body(req);
    const url = `http://127.0.0.1${req.url}`;
    const request = new Request(url, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === "GET" || req.method === "HEAD" || raw.length === 0 ? undefined : new Uint8Array(raw),
    });
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (typeof id === "string" && !transport) {
      res.writeHead(404, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
    }
    if (!transport) {
      transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          opened += 1;
          sessions.set(sessionId, transport!);
        },
      });
      await mcpServer(() => String(headers.at(-1)?.authorization ?? "nothing")).connect(transport);
    }
    await send(res, await transport.handleRequest(request));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    headers,
    sessionsOpened: () => opened,
    forgetSessions: () => sessions.clear(),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
