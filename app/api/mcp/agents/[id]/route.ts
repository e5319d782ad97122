// An agent as an MCP server (Streamable HTTP) behind an API key. No logic here: server/api/mcp.ts.
import { mcpAgentEndpoint } from "@/server/api/mcp";

export const dynamic = "force-dynamic";
export const GET = mcpAgentEndpoint;
export const POST = mcpAgentEndpoint;
export const DELETE = mcpAgentEndpoint;
