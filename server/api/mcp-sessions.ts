// The MCP endpoint's sessions (R-api-mcp-session): one MCP server and its Streamable HTTP transport per session, kept
// in this process, because a call's elicitation is a request to the client whose answer arrives as another HTTP
// request of the same session. A session belongs to the key and the agent that opened it; one idle for 30 minutes is
// closed, and past 1,000 the longest idle goes first. Edit when sessions need to outlive a process.
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type Server } from "@modelcontextprotocol/server";

export const SESSION_IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 1_000;

type Session = { transport: WebStandardStreamableHTTPServerTransport; server: Server; keyId: string; agentId: string; seen: number };

const holder = globalThis as typeof globalThis & { __quiverMcpSessions?: Map<string, Session> };
const sessions = (holder.__quiverMcpSessions ??= new Map());

function close(id: string): void {
  const session = sessions.get(id);
  if (!session) return;
  sessions.delete(id);
  void session.server.close().catch(() => undefined);
}

/** Sessions idle too long are closed, and the longest idle ones while there are too many. */
function sweep(now: number): void {
  for (const [id, session] of sessions) if (now - session.seen > SESSION_IDLE_MS) close(id);
  const byIdle = [...sessions.entries()].sort((a, b) => a[1].seen - b[1].seen);
  for (const [id] of byIdle.slice(0, Math.max(0, sessions.size - MAX_SESSIONS + 1))) close(id);
}

/** The open session of this id, when the same key opened it for the same agent; null otherwise. */
export function findSession(id: string, keyId: string, agentId: string): WebStandardStreamableHTTPServerTransport | null {
  const session = sessions.get(id);
  if (!session || session.keyId !== keyId || session.agentId !== agentId) return null;
  if (Date.now() - session.seen > SESSION_IDLE_MS) {
    close(id);
    return null;
  }
  session.seen = Date.now();
  return session.transport;
}

/**
 * A transport for a request that names no session: an initialize opens the session (kept once the transport gives
 * it its id); anything else is answered by the transport, and the server closed after it.
 */
export async function openSession(keyId: string, agentId: string, server: Server): Promise<{ transport: WebStandardStreamableHTTPServerTransport; opened: () => boolean }> {
  sweep(Date.now());
  let opened = false;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      opened = true;
      sessions.set(id, { transport, server, keyId, agentId, seen: Date.now() });
    },
    onsessionclosed: (id) => close(id),
  });
  await server.connect(transport);
  return { transport, opened: () => opened };
}

/** How many sessions this process holds (for tests). */
export function openSessions(): number {
  return sessions.size;
}
