// A small stdio MCP server written with the official SDK (@modelcontextprotocol/server), for what the reference
// servers cannot show: the environment a server is started with, and whether a cancelled call reaches it.
import { createHash } from "node:crypto";
import { appendFileSync, existsSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const server = new McpServer({ name: "quiver-probe", version: "1.0.0" });

// The token's hash too: the studio masks the value itself in what the server answers.
const tokenSha256 = process.env.PROBE_TOKEN ? createHash("sha256").update(process.env.PROBE_TOKEN).digest("hex") : null;

server.registerTool("environment", { description: "Report the process's environment and working folder." }, async () => ({
  content: [{ type: "text", text: JSON.stringify({ env: process.env, cwd: process.cwd(), pid: process.pid, tokenSha256 }) }],
}));

server.registerTool(
  "look",
  { description: "Say which of these paths the server can see.", inputSchema: z.object({ paths: z.array(z.string()) }) },
  async ({ paths }) => ({ content: [{ type: "text", text: JSON.stringify(Object.fromEntries(paths.map((p) => [p, existsSync(p)]))) }] }),
);

server.registerTool(
  "wait",
  { description: "Wait, reporting progress, until the time is up or the call is cancelled.", inputSchema: z.object({ seconds: z.number() }) },
  async ({ seconds }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    const until = Date.now() + seconds * 1000;
    let step = 0;
    while (Date.now() < until) {
      if (ctx.mcpReq.signal.aborted) {
        if (process.env.MARKER_FILE) appendFileSync(process.env.MARKER_FILE, `cancelled after ${step} steps\n`);
        return { content: [{ type: "text", text: "cancelled" }] };
      }
      step += 1;
      if (token !== undefined) await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: step, message: `step ${step}` } });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { content: [{ type: "text", text: `waited ${step} steps` }] };
  },
);

// What a client sent in the call's _meta besides a progress token (an idempotency key, R-journal-idempotent).
server.registerTool("meta", { description: "Say the call's _meta.", annotations: { idempotentHint: true } }, async (ctx) => {
  const meta = { ...ctx.mcpReq._meta };
  delete meta.progressToken;
  return { content: [{ type: "text", text: JSON.stringify(meta) }] };
});

let extras = 0;
server.registerTool("add-tool", { description: "Offer one more tool; the SDK announces it with list_changed." }, async () => {
  extras += 1;
  server.registerTool(`extra-${extras}`, { description: "Added while the server runs." }, async () => ({ content: [{ type: "text", text: "extra" }] }));
  return { content: [{ type: "text", text: `added extra-${extras}` }] };
});

console.error(`probe server up; TOKEN_SEEN=${process.env.PROBE_TOKEN ?? "none"}`);
await server.connect(new StdioServerTransport());
