// /api/mcp/agents/{id}: an agent as an MCP server over Streamable HTTP (POST, GET for the server's stream, DELETE to
// end the session), behind an API key with the run scope for that agent (R-api-mcp-endpoint). Every request, in a
// session or not, has its body bounded, its key checked afresh (a revoke holds at once) and its agent looked up by
// id or name; the MCP SDK's transport does the rest. Refusals before MCP are the public API's envelope. Edit when
// the endpoint's edge changes; what the agent offers is mcp-server.ts's.
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents } from "@/db/schema";
import { env } from "@/server/env";
import { DomainError } from "@/server/errors";
import { apiError, openKeyRequest, pathParams, requireAgent, thrownAnswer } from "./edge";
import { agentServer, type RequestFacts } from "./mcp-server";
import { findSession, openSession } from "./mcp-sessions";

export const MCP_AGENT_PATH = "/api/mcp/agents/{id}";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The agent the path names, by its id or its name (unique, case aside). */
async function agentOfPath(db: Db, pathname: string): Promise<{ id: string; name: string }> {
  const named = pathParams(MCP_AGENT_PATH, pathname)?.id ?? "";
  const columns = { id: agents.id, name: agents.name };
  const [byId] = UUID.test(named) ? await db.select(columns).from(agents).where(eq(agents.id, named)) : [];
  const [found] = byId ? [byId] : await db.select(columns).from(agents).where(eq(sql`lower(${agents.name})`, named.toLowerCase()));
  if (!found) {
    throw new DomainError("NOT_FOUND", "NO_SUCH_AGENT", `There is no agent “${named}”: name one by its id or its name, as its page in the studio shows them.`);
  }
  return found;
}

const NO_SESSION =
  "This MCP session is not open here: it ended, was idle too long, the studio restarted, or it was opened with another key or for another agent; start a new session (initialize again).";

export async function mcpAgentEndpoint(incoming: Request): Promise<Response> {
  let keyId: string | null = null;
  try {
    const keyed = await openKeyRequest(incoming, "run");
    if (keyed instanceof Response) return keyed;
    const { request, db, key } = keyed;
    keyId = key.id;
    const agent = await agentOfPath(db, new URL(request.url).pathname);
    requireAgent(key, agent.id);
    const facts: RequestFacts = { key, agentName: agent.name, origin: env().baseUrl ?? new URL(request.url).origin };
    // The key itself never travels on: the handlers get the checked principal.
    const authInfo = { token: "", clientId: key.id, scopes: [...key.scopes], extra: facts };
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const transport = findSession(sessionId, key.id, agent.id);
      if (!transport) return apiError(404, "NO_SUCH_SESSION", NO_SESSION);
      return await transport.handleRequest(request, { authInfo });
    }
    const server = agentServer(agent);
    const { transport, opened } = await openSession(key.id, agent.id, server);
    const answer = await transport.handleRequest(request, { authInfo });
    if (!opened()) await server.close();
    return answer;
  } catch (error) {
    return thrownAnswer(error, `MCP ${incoming.method} ${new URL(incoming.url).pathname}${keyId ? ` for key ${keyId}` : ""}`);
  }
}
