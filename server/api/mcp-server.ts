// One agent as an MCP server: tools/list is what a run of the agent would offer the model (R-api-mcp-list) and the
// agent itself as ask_<slug> (R-api-mcp-ask); tools/call runs an operation as a run of one call through the same
// pipeline as a model's call (R-api-mcp-call), or the agent on a message. Every answer is a result the client can
// read: a failure is isError with the studio's sentence, never a stack (R-error-id). Edit when a tool is added.
import type { CallToolResult, ServerContext, Tool } from "@modelcontextprotocol/server";
import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { z } from "zod";
import { ASK_TOOL_SCHEMA, askToolDescription, askToolName } from "@/server/agents/ask-tool";
import { getDb } from "@/server/db";
import { reportUnexpected } from "@/server/error-report";
import { DomainError } from "@/server/errors";
import { inputSentence } from "@/server/input/sentences";
import { text } from "@/server/input/text";
import { recordKeyUse, type ApiKeyPrincipal } from "@/server/keys/request";
import { studioRuntime, type EventData, type Runtime } from "@/server/runtime";
import { followRun, type Asker, type Followed, type Wait } from "./mcp-follow";
import { approvalForm, pendingSentence, questionForm, recoveryForm } from "./mcp-words";

/** What the route learnt of this HTTP request, handed to the handlers with it. */
export type RequestFacts = { key: ApiKeyPrincipal; agentName: string; origin: string };

/** How often a waiting call tells a client that asked for progress that it still waits. */
export const MCP_BEAT_MS = 15_000;

const askInput = z.object({ message: text().min(1).max(100_000) }).strict();

/** What the client's person said of a call that may have run; marked done only with the result it gave, as the API asks. */
const recoveryReply = z
  .object({ action: z.enum(["again", "done", "fail"]), result: text().max(100_000).optional() })
  .refine((reply) => reply.action !== "done" || (reply.result ?? "").trim() !== "");

function factsOf(ctx: ServerContext): RequestFacts {
  const facts = ctx.http?.authInfo?.extra as RequestFacts | undefined;
  if (!facts) throw new Error("an MCP request reached the agent's server without the route's facts");
  return facts;
}

const failed = (sentence: string, extra: Partial<CallToolResult> = {}): CallToolResult => ({ content: [{ type: "text", text: sentence }], isError: true, ...extra });

async function toolsOf(runtime: Runtime, agentId: string): Promise<Tool[]> {
  const { agent, catalog } = await runtime.offered(agentId);
  const tools: Tool[] = catalog.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.input_schema as Tool["inputSchema"] }));
  const ask = askToolName(agent.name, tools.map((t) => t.name));
  return [...tools, { name: ask, description: askToolDescription(agent.name), inputSchema: ASK_TOOL_SCHEMA as Tool["inputSchema"] }];
}

/** Whether `name` is the agent tool: only a name shaped as one costs a read of the agent's tools. */
async function isAskTool(runtime: Runtime, agentId: string, agentName: string, name: string): Promise<boolean> {
  const plain = askToolName(agentName);
  if (name !== plain && name !== `${plain}_agent`) return false;
  const { catalog } = await runtime.offered(agentId);
  return name === askToolName(agentName, catalog.tools.map((t) => t.name));
}

/** The client's person, where the client can show a form and the key may decide (R-api-mcp-elicit). */
function askerOf(server: Server, ctx: ServerContext, facts: RequestFacts): Asker | null {
  const elicitation = server.getClientCapabilities()?.elicitation;
  const form = elicitation !== undefined && (Object.keys(elicitation).length === 0 || elicitation.form !== undefined);
  if (!form || !facts.key.scopes.includes("decide")) return null;
  const options = (signal: AbortSignal) => ({ signal, timeout: facts.key.waitLimitMs });
  return {
    async approve(wait, signal) {
      const reply = await ctx.mcpReq.elicitInput(approvalForm(wait, facts.agentName), options(signal));
      if (reply.action === "accept") return reply.content?.decision === "approve" ? "once" : "deny";
      return reply.action === "decline" ? "deny" : null;
    },
    async answer(wait, signal) {
      const reply = await ctx.mcpReq.elicitInput(questionForm(wait, facts.agentName), options(signal));
      if (reply.action === "accept") return { answer: String(reply.content?.answer ?? "") };
      return reply.action === "decline" ? { answer: null } : null;
    },
    // Declining says nothing of whether the call ran, and neither does a reply that does not read: the studio asks.
    async recover(wait, signal) {
      const reply = await ctx.mcpReq.elicitInput(recoveryForm(wait, facts.agentName), options(signal));
      const said = reply.action === "accept" ? recoveryReply.safeParse(reply.content ?? {}) : null;
      if (!said?.success) return null;
      const { action, result } = said.data;
      return { action, ...(action !== "again" && result !== undefined ? { text: result } : {}) };
    },
  };
}

/** Progress notifications while the run waits, for a client that sent a progress token (it may then wait longer). */
function beatsOf(ctx: ServerContext, token: string | number | undefined): ((wait: Wait | null) => void) | undefined {
  if (token === undefined) return undefined;
  let beats = 0;
  return (wait) => {
    const message =
      wait?.kind === "question"
        ? `Waiting for an answer to “${wait.question}”.`
        : wait?.kind === "recovery"
          ? `Waiting for a person to say whether “${wait.title}” ran.`
          : `Waiting for approval${wait ? ` of “${wait.title}”` : ""}.`;
    void ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: ++beats, message } }).catch(() => undefined);
  };
}

function resultOf(r: EventData["tool_result"]): Pick<CallToolResult, "content" | "isError"> {
  const images = r.images.map((image) => ({ type: "image" as const, data: image.data, mimeType: image.mimeType }));
  return { content: [{ type: "text", text: r.text }, ...images], isError: r.outcome !== "ok" };
}

function answerOf(followed: Followed, runId: string, runUrl: string, what: "call" | "agent"): CallToolResult {
  const _meta = { "quiver/run": { id: runId, url: runUrl } };
  switch (followed.kind) {
    case "result":
      return { ...resultOf(followed.result), _meta };
    case "reply":
      return { content: [{ type: "text", text: followed.text || "The agent finished without saying anything." }], _meta };
    case "pending":
      return failed(pendingSentence(followed.wait, runId, runUrl, what), { _meta });
    case "ended":
      return failed(followed.message, { _meta });
  }
}

async function call(server: Server, agentId: string, params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } }, ctx: ServerContext): Promise<CallToolResult> {
  const facts = factsOf(ctx);
  const { key } = facts;
  const runtime = await studioRuntime();
  const db = await getDb();
  const via = { kind: "mcp" as const, keyId: key.id, keyName: key.name };
  const ask = await isAskTool(runtime, agentId, facts.agentName, params.name);
  let runId: string;
  let callId: string | null = null;
  if (ask) {
    const input = askInput.safeParse(params.arguments ?? {});
    if (!input.success) return failed(inputSentence(input.error.issues));
    ({ runId } = await runtime.start({ agentId, message: input.data.message, user: key.who, via }));
  } else {
    ({ runId, callId } = await runtime.call({ agentId, name: params.name, args: params.arguments ?? {}, user: key.who, via }));
  }
  await recordKeyUse(db, key, { action: ask ? "mcp.ask" : "mcp.call", agentId, runId });
  const runUrl = `${facts.origin}/runs/${runId}`;
  const followed = await followRun({
    runtime,
    runId,
    callId,
    who: key.who,
    waitLimitMs: key.waitLimitMs,
    asker: askerOf(server, ctx, facts),
    onWait: beatsOf(ctx, params._meta?.progressToken),
    beatMs: MCP_BEAT_MS,
    signal: ctx.mcpReq.signal,
  });
  return answerOf(followed, runId, runUrl, ask ? "agent" : "call");
}

/** The MCP server of one agent, for one session. */
export function agentServer(agent: { id: string; name: string }): Server {
  const server = new Server(
    { name: `quiver-agent`, title: `Quiver agent ${agent.name}`, version: "1.0.0" },
    {
      capabilities: { tools: {} },
      instructions: `The tools of the Quiver agent “${agent.name}”, run in the studio under its settings and permissions, and the agent itself as one tool (${askToolName(agent.name)}).`,
    },
  );
  server.setRequestHandler("tools/list", async (_request, ctx) => {
    const { key } = factsOf(ctx);
    try {
      const tools = await toolsOf(await studioRuntime(), agent.id);
      await recordKeyUse(await getDb(), key, { action: "mcp.list", agentId: agent.id });
      return { tools };
    } catch (error) {
      if (error instanceof DomainError) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, error.message);
      throw new ProtocolError(ProtocolErrorCode.InternalError, reportUnexpected(error, `MCP tools/list of agent ${agent.id} for key ${key.id}`).sentence);
    }
  });
  server.setRequestHandler("tools/call", async (request, ctx) => {
    try {
      return await call(server, agent.id, request.params, ctx);
    } catch (error) {
      if (error instanceof DomainError) return failed(error.message);
      return failed(reportUnexpected(error, `MCP tools/call ${request.params.name} of agent ${agent.id}`).sentence);
    }
  });
  return server;
}
