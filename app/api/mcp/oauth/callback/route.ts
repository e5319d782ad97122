// Where an MCP server's consent page sends the admin's browser back (R-mcp-oauth-state). A top-level navigation from
// the server's site, so not behind the same-origin guard: the single-use state, bound to the admin who pressed
// Connect, is what ties it to this studio. A sign-in for a row ends on that row; a state that names none is refused
// here with its sentence.
import { z } from "zod";
import { hasRole } from "@/server/auth/roles";
import { sessionUser } from "@/server/auth/session";
import { getDb } from "@/server/db";
import { reportUnexpected } from "@/server/error-report";
import { text } from "@/server/input/text";
import { inputSentence } from "@/server/input/sentences";
import { finishConnect } from "@/server/mcp/oauth";
import { mcpPool } from "@/server/mcp/pool";

export const dynamic = "force-dynamic";

const param = text().max(4096).nullable();
const query = z.object({ state: param, code: param, error: param, errorDescription: param, iss: param });

/** The code and state are in this page's address: it is sent to no one else, and kept by no cache. */
const PRIVATE = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function refusal(status: number, sentence: string): Response {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in not finished</title></head><body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5"><h1 style="font-size: 1.25rem">The sign-in was not finished</h1><p role="alert">${escape(sentence)}</p><p><a href="/settings/mcp">Back to Settings → MCP servers</a></p></body></html>`;
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...PRIVATE } });
}

export async function GET(request: Request): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const parsed = query.safeParse({
    state: params.get("state"),
    code: params.get("code"),
    error: params.get("error"),
    errorDescription: params.get("error_description"),
    iss: params.get("iss"),
  });
  if (!parsed.success) return refusal(400, inputSentence(parsed.error.issues));
  try {
    const user = await sessionUser(request.headers);
    const who = user && { id: user.id, name: user.name, admin: hasRole(user, "admin") };
    const outcome = await finishConnect(await getDb(), parsed.data, who, mcpPool());
    if (outcome.serverId === null) return refusal(400, outcome.sentence);
    // The row shows how it went (its sign-in's outcome and its status); the fragment scrolls to it.
    return new Response(null, { status: 303, headers: { location: `/settings/mcp#${outcome.serverId}`, ...PRIVATE } });
  } catch (error) {
    return refusal(500, reportUnexpected(error, "the MCP sign-in's callback").sentence);
  }
}
