// bench:mcp's MCP server, written with the official SDK (@modelcontextprotocol/server): `noop` answers at once (the
// call figure); with BENCH_TOOLS=n it offers n more tools whose input schemas have the shapes real servers send
// (draft-07 with $schema, $ref/$defs, nullable unions, nested arrays, formats), for the listing figure; `reword`
// changes one of them and announces notifications/tools/list_changed. Over stdio, or Streamable HTTP on
// 127.0.0.1 when given `http` (it prints its URL on stdout).
import http from "node:http";
import { randomUUID } from "node:crypto";
import { fromJsonSchema, McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

const COUNT = Number(process.env.BENCH_TOOLS ?? 0);

/** The i-th tool's input schema: one of four shapes seen in real servers, varied by i so no two are alike. */
function schemaOf(i) {
  switch (i % 4) {
    case 0: // zod-to-json-schema, as server-filesystem sends it
      return {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: {
          path: { type: "string", description: `The file to read (tool ${i}).` },
          head: { type: "number", description: "Only the first N lines." },
          tail: { type: "number", description: "Only the last N lines." },
        },
        required: ["path"],
        additionalProperties: false,
      };
    case 1: // nested arrays of objects, as server-memory's create_entities
      return {
        type: "object",
        properties: {
          entities: {
            type: "array",
            items: {
              type: "object",
              properties: {
                name: { type: "string", description: `The entity's name (tool ${i}).` },
                entityType: { type: "string" },
                observations: { type: "array", items: { type: "string" } },
              },
              required: ["name", "entityType", "observations"],
            },
          },
        },
        required: ["entities"],
      };
    case 2: // pydantic: $defs, $ref, Optional as anyOf with null, enums and defaults
      return {
        $defs: {
          Address: {
            type: "object",
            properties: { street: { type: "string" }, city: { type: "string" }, zip: { anyOf: [{ type: "string" }, { type: "null" }], default: null } },
            required: ["street", "city"],
            title: "Address",
          },
          Person: {
            type: "object",
            properties: { name: { type: "string" }, home: { $ref: "#/$defs/Address" }, work: { anyOf: [{ $ref: "#/$defs/Address" }, { type: "null" }] } },
            required: ["name", "home"],
            title: "Person",
          },
        },
        type: "object",
        properties: {
          people: { type: "array", items: { $ref: "#/$defs/Person" }, description: `Who to add (tool ${i}).` },
          mode: { enum: ["merge", "replace"], default: "merge", type: "string" },
          dry_run: { type: "boolean", default: false },
        },
        required: ["people"],
        title: `tool_${i}Arguments`,
      };
    default: // 2020-12 with oneOf null, formats and patterns, as hand-written servers send
      return {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: {
          url: { type: "string", format: "uri", description: `Where to fetch from (tool ${i}).` },
          since: { oneOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
          labels: { type: "array", items: { type: "string", pattern: "^[a-z][a-z0-9-]*$" }, uniqueItems: true },
          limit: { type: "integer", minimum: 1, maximum: 100, default: 30 },
        },
        required: ["url"],
      };
  }
}

function serve() {
  const server = new McpServer({ name: "quiver-bench", version: "1.0.0" });
  server.registerTool("noop", { description: "Answer at once.", annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: "text", text: "ok" }] }));
  server.registerTool("noop_write", { description: "Answer at once; not marked read-only, so a run audits it." }, async () => ({ content: [{ type: "text", text: "ok" }] }));
  const tools = [];
  for (let i = 0; i < COUNT; i++) {
    const name = `tool_${String(i).padStart(3, "0")}`;
    tools.push(server.registerTool(name, { description: `Tool ${i} of the benchmark's server.`, inputSchema: fromJsonSchema(schemaOf(i)) }, async () => ({ content: [{ type: "text", text: name }] })));
  }
  let words = 0;
  server.registerTool("reword", { description: "Change what the first listed tool says." }, async () => {
    tools[0]?.update({ description: `Tool 0 of the benchmark's server, reworded ${++words} times.` });
    return { content: [{ type: "text", text: "reworded" }] };
  });
  return server;
}

async function overHttp() {
  const sessions = new Map();
  const web = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const raw = Buffer.concat(chunks);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers,
      body: req.method === "GET" || req.method === "HEAD" || raw.length === 0 ? undefined : new Uint8Array(raw),
    });
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => sessions.set(sid, transport), enableJsonResponse: true });
      await serve().connect(transport);
    }
    const response = await transport.handleRequest(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
  });
  await new Promise((resolve) => web.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`http://127.0.0.1:${web.address().port}/mcp\n`);
}

if (process.argv[2] === "http") await overHttp();
else await serve().connect(new StdioServerTransport());
