// What the MCP endpoint's tests share: the runs API's scratch studio (apiStudio: PGlite, a small tree, the loopback
// model, app/api/v1 over HTTP) plus the endpoint's route file served on 127.0.0.1 the same way, keys made in the
// table with the wait limit a test needs, and the official MCP SDK client connected with a bearer key. Edit when a
// test needs another helper.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport, type ElicitRequestFormParams, type ElicitResult } from "@modelcontextprotocol/client";
import { serveOverHttp } from "../http/studio";
import { apiStudio, type ApiStudio } from "./runs-studio";

export type KeyOptions = { name?: string; scopes?: ("run" | "read" | "decide")[]; agents?: "all" | string[]; waitLimitS?: number };

export type McpStudio = {
  api: ApiStudio;
  /** The endpoint of an agent, named by its id or its name. */
  endpoint(agent: string): string;
  key(options?: KeyOptions): Promise<{ value: string; id: string; name: string }>;
  /** The SDK client connected to the agent's endpoint; with `elicit`, it declares elicitation and answers with it. */
  connect(agent: string, key: string, elicit?: (params: ElicitRequestFormParams) => ElicitResult | Promise<ElicitResult>): Promise<Connected>;
  close(): Promise<void>;
};

export type Connected = { client: Client; transport: StreamableHTTPClientTransport; close(): Promise<void> };

let keys = 0;

export async function mcpStudio(name: string, files: Record<string, string>): Promise<McpStudio> {
  const api = await apiStudio(name, files);
  const { mcpAgentEndpoint } = await import("@/server/api/mcp");
  const route = (await import("@/app/api/mcp/agents/[id]/route")) as unknown as Record<string, ((request: Request) => Promise<Response>) | undefined>;
  // The route file must export exactly what the endpoint answers.
  if (route.GET !== mcpAgentEndpoint || route.POST !== mcpAgentEndpoint || route.DELETE !== mcpAgentEndpoint) throw new Error("the MCP route does not export the endpoint");
  const server: http.Server = await serveOverHttp((request) => {
    const handler = route[request.method];
    return handler ? handler(request) : new Response("method not allowed", { status: 405 });
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const { getDb } = await import("@/server/db");
  const { apiKeys } = await import("@/db/schema");
  const { newKeyValue } = await import("@/server/keys/value");
  const db = await getDb();
  const open: Connected[] = [];
  return {
    api,
    endpoint: (agent) => `${base}/api/mcp/agents/${encodeURIComponent(agent)}`,
    async key(options = {}) {
      const made = newKeyValue();
      const keyName = options.name ?? `mcp key ${++keys}`;
      const [row] = await db
        .insert(apiKeys)
        .values({
          name: keyName,
          prefix: made.prefix,
          hash: made.hash,
          agents: options.agents ?? "all",
          scopes: options.scopes ?? ["run", "read", "decide"],
          waitLimitS: options.waitLimitS ?? 300,
          ratePerMinute: 1000,
          createdBy: "user-admin",
        })
        .returning({ id: apiKeys.id });
      return { value: made.value, id: row!.id, name: keyName };
    },
    async connect(agent, key, elicit) {
      const client = new Client({ name: "quiver-test", version: "1.0.0" }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
      if (elicit) client.setRequestHandler("elicitation/create", async (request) => elicit(request.params as ElicitRequestFormParams));
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/agents/${encodeURIComponent(agent)}`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      });
      await client.connect(transport);
      const connected = { client, transport, close: () => client.close() };
      open.push(connected);
      return connected;
    },
    async close() {
      await Promise.allSettled(open.map((c) => c.close()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await api.close();
    },
  };
}
