// The agent as an MCP server, reached with the official MCP SDK client over real HTTP: the tool list is what the
// model sees plus the agent itself, a call is a run of one call through the same pipeline as a model's (secrets
// applied and masked), ask_<slug> runs the agent, an Ask me call is approved through elicitation or, without it,
// answers that approval is pending once the key's wait is over, and keys are refused as the public API refuses them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { call as modelCall, text } from "@/tests/support/loopback-model";
import { bearer, call, readEvents, type RunView } from "./runs-studio";
import { mcpStudio, type McpStudio } from "./mcp-studio";

const NOTES = `"""Notes."""


def echo(text: str) -> str:
    """Say the text back.

    Args:
        text: What to say.
    """
    return f"echo: {text}"


def write(subject: str) -> str:
    """Write one note.

    Args:
        subject: The note's name.
    """
    return f"wrote {subject}"
`;

const SERVICE = `"""A service whose tool says its token."""

from quiver import Secret


class Settings:
    """Credentials.

    Attributes:
        token: The service's token.
    """

    token: Secret


def whoami(settings: Settings) -> str:
    """Say who the service thinks we are."""
    return "token=" + settings.token
`;

const TOKEN = "svc_live_9f8e7d6c5b4a";
const ENTRIES = ["tools/notes.py", "tools/service.py", "system:planning"];
let s: McpStudio;
let agent: string;
let key: { value: string; id: string; name: string };
/** Every answer the endpoint gave, as JSON: none may hold the secret. */
const answers: string[] = [];

beforeAll(async () => {
  s = await mcpStudio("api-mcp", { "notes.py": NOTES, "service.py": SERVICE });
  const { createSecret } = await import("@/server/secrets/store");
  const { getDb } = await import("@/server/db");
  await createSecret(await getDb(), "admin", { name: "SERVICE_TOKEN", value: TOKEN });
  agent = await s.api.agent("Helper Bot", [
    { entry: ENTRIES[0], permissions: { notes__write: "ASK" } },
    { entry: ENTRIES[1], settings: { token: "${SERVICE_TOKEN}" } },
    { entry: ENTRIES[2] },
  ]);
  key = await s.key({ name: "ide" });
}, 120_000);
beforeEach(() => s.api.model.reset());
afterAll(async () => {
  for (const answer of answers) expect(answer).not.toContain(TOKEN);
  await s?.close();
});

const kept = <T>(value: T): T => {
  answers.push(JSON.stringify(value));
  return value;
};

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
const runOf = (result: CallToolResult) => (result._meta?.["quiver/run"] as { id: string; url: string }).id;
async function auditRows(action: string) {
  const { getDb } = await import("@/server/db");
  const { audit } = await import("@/db/schema");
  return (await (await getDb()).select().from(audit)).filter((row) => row.action === action);
}

const getRun = async (runId: string) => (await call<RunView>(`${s.api.url}/api/v1/runs/${runId}`, { key: key.value })).json!;

async function callTool(client: Awaited<ReturnType<McpStudio["connect"]>>["client"], name: string, args: Record<string, unknown>) {
  return kept((await client.callTool({ name, arguments: args }, { timeout: 20_000 })) as CallToolResult);
}

describe("tools/list", () => {
  it("is exactly what the model sees (names, descriptions, schemas), then the agent itself as ask_<slug>", async () => {
    const { client } = await s.connect(agent, key.value);
    const { tools } = kept(await client.listTools());
    const { createCallerFactory } = await import("@/server/trpc/init");
    const { agentsRouter } = await import("@/server/trpc/routers/agents");
    const builder = { id: s.api.builderId, email: "bea@quiver.test", name: "Bea", role: "builder" as const };
    const view = await createCallerFactory(agentsRouter)({ headers: new Headers(), user: builder }).modelView({ entries: ENTRIES, provider: "openai-compatible" });
    expect(view.tools.length).toBeGreaterThan(3);
    expect(tools.slice(0, -1).map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }))).toEqual(view.tools);
    expect(tools.at(-1)).toMatchObject({ name: "ask_helper_bot", inputSchema: { type: "object", required: ["message"] } });
    expect(JSON.stringify(tools)).not.toMatch(/SERVICE_TOKEN|settings/);
    expect((await auditRows("mcp.list")).length).toBeGreaterThan(0);
  });

  it("answers the agent named by its name, case aside, as by its id", async () => {
    const { client } = await s.connect("helper BOT", key.value);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("notes__echo");
  });
});

describe("tools/call of an operation (R-api-mcp-call)", () => {
  it("runs a tree operation as a run of one call, in /runs via MCP and the key, with its audit row", async () => {
    const { client } = await s.connect(agent, key.value);
    const result = await callTool(client, "notes__echo", { text: "hello" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("echo: hello");
    const run = await getRun(runOf(result));
    expect(run).toMatchObject({ status: "done", via: { kind: "mcp", keyName: "ide" }, startedBy: { name: "API key ide" }, messages: [] });
    expect(run.calls).toEqual([expect.objectContaining({ callId: "call_1", name: "notes__echo", state: "finished", result: expect.objectContaining({ outcome: "ok", text: "echo: hello" }) })]);
    expect((await auditRows("mcp.call")).filter((r) => r.target === run.id)).toEqual([expect.objectContaining({ actor: `key:${key.id}` })]);
  });

  it("runs a built-in operation the same way", async () => {
    const { client } = await s.connect(agent, key.value);
    const result = await callTool(client, "write_todos", { todos: [{ content: "Sort the inbox", status: "pending" }] });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("Sort the inbox");
  });

  it("gives a setting's secret to the tool and masks it in the answer and the run", async () => {
    const { client } = await s.connect(agent, key.value);
    const result = await callTool(client, "service__whoami", {});
    expect(textOf(result)).toBe("token=***");
    expect(JSON.stringify(await getRun(runOf(result)))).not.toContain(TOKEN);
  });

  it("answers a call the pipeline refuses as isError with its sentence: unknown name, missing argument", async () => {
    const { client } = await s.connect(agent, key.value);
    const unknown = await callTool(client, "notes__delete", {});
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/notes__delete/);
    const missing = await callTool(client, "notes__echo", {});
    expect(missing).toMatchObject({ isError: true });
    expect(textOf(missing)).toMatch(/needs the argument `text`/);
  });
});

describe("ask_<slug> (R-api-mcp-ask)", () => {
  it("runs the agent on the message and answers its last reply", async () => {
    s.api.model.reply(modelCall("notes__echo", { text: "hi" }), text("I said hi back."));
    const { client } = await s.connect(agent, key.value);
    const result = await callTool(client, "ask_helper_bot", { message: "Say hi." });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("I said hi back.");
    const run = await getRun(runOf(result));
    expect(run).toMatchObject({ status: "done", via: { kind: "mcp", keyName: "ide" } });
    expect(run.messages[0]).toMatchObject({ role: "user", text: "Say hi." });
    expect((await auditRows("mcp.ask")).filter((r) => r.target === run.id)).toHaveLength(1);
    // The model was offered the agent's tools, never the agent tool itself.
    expect(s.api.model.requests[0]!.body.tools!.map((t) => t.function.name)).not.toContain("ask_helper_bot");
  });

  it("refuses an empty message with the sentence naming it", async () => {
    const { client } = await s.connect(agent, key.value);
    const result = await callTool(client, "ask_helper_bot", { message: "" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^message /);
  });
});

describe("an Ask me operation (R-api-mcp-elicit, R-api-mcp-pending)", () => {
  it("asks an elicitation-capable client, runs once approved and refuses once denied", async () => {
    const asked: string[] = [];
    let decision = "approve";
    const { client } = await s.connect(agent, key.value, (params) => {
      asked.push(params.message);
      return { action: "accept", content: { decision } };
    });
    const approved = await callTool(client, "notes__write", { subject: "first" });
    expect(textOf(approved)).toBe("wrote first");
    expect(asked[0]).toMatch(/notes__write/);
    expect((await getRun(runOf(approved))).calls[0]).toMatchObject({ decision: { decision: "approve_once", by: { name: "API key ide" } } });
    decision = "deny";
    const denied = await callTool(client, "notes__write", { subject: "second" });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/denied this call, so it did not run/);
  });

  it("without elicitation, waits the key's limit, then answers that approval is pending with the run's page; the run goes on once decided", async () => {
    const short = await s.key({ name: "short wait", waitLimitS: 1 });
    const { client } = await s.connect(agent, short.value);
    const started = Date.now();
    const result = await callTool(client, "notes__write", { subject: "later" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(result.isError).toBe(true);
    const runId = runOf(result);
    expect(textOf(result)).toMatch(/^Approval is pending: “Write” \(notes__write\)/);
    expect(textOf(result)).toContain(`/runs/${runId}`);
    await expect.poll(async () => (await getRun(runId)).status, { timeout: 10_000 }).toBe("waiting");
    const decided = await call(`${s.api.url}/api/v1/runs/${runId}/decisions`, { key: key.value, body: { callId: "call_1", decision: "approve_once" } });
    expect(decided.status).toBe(200);
    expect((await readEvents(`${s.api.url}/api/v1/runs/${runId}/events`, bearer(key.value), () => false, 15_000)).ended).toBe(true);
    expect(await getRun(runId)).toMatchObject({ status: "done", calls: [expect.objectContaining({ result: expect.objectContaining({ text: "wrote later" }) })] });
  });

  it("does not ask through elicitation with a key that may not decide: the call waits for the studio", async () => {
    const runOnly = await s.key({ name: "run only", scopes: ["run"], waitLimitS: 1 });
    const asked: string[] = [];
    const { client } = await s.connect(agent, runOnly.value, (params) => {
      asked.push(params.message);
      return { action: "accept", content: { decision: "approve" } };
    });
    const result = await callTool(client, "notes__write", { subject: "held" });
    expect(asked).toEqual([]);
    expect(textOf(result)).toMatch(/^Approval is pending/);
  });
});

describe("keys and sessions (R-api-mcp-endpoint, R-api-mcp-session)", () => {
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } } };
  const post = (url: string, value: string, body: unknown = initialize, headers: Record<string, string> = {}) =>
    call(url, { key: value, body, headers: { accept: "application/json, text/event-stream", ...headers } });

  it("refuses a wrong key with 401 and a key that may not use the agent with 403, in the API's envelope", async () => {
    await expect(s.connect(agent, "qk_not_a_key_at_all_000000000000000000000000")).rejects.toMatchObject({ data: { status: 401 }, message: /BAD_KEY/ });
    const wrong = await post(s.endpoint(agent), "qk_not_a_key_at_all_000000000000000000000000");
    expect(wrong).toMatchObject({ status: 401, json: { error: { code: "BAD_KEY" } } });
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const other = await s.api.agent("Other");
    const elsewhere = await s.key({ name: "elsewhere", agents: [other] });
    await expect(s.connect(agent, elsewhere.value)).rejects.toMatchObject({ data: { status: 403 }, message: /KEY_AGENT/ });
    expect(await post(s.endpoint(agent), elsewhere.value)).toMatchObject({ status: 403, json: { error: { code: "KEY_AGENT" } } });
    expect(await post(s.endpoint("no such agent"), key.value)).toMatchObject({ status: 404, json: { error: { code: "NO_SUCH_AGENT" } } });
  });

  it("refuses a body over the limit with 413, and answers what is not MCP with a JSON-RPC error, never a stack", async () => {
    const huge = await call(s.endpoint(agent), { key: key.value, raw: `"${"x".repeat(9 * 1024 * 1024)}"`, headers: { accept: "application/json, text/event-stream" } });
    expect(huge).toMatchObject({ status: 413, json: { error: { code: "BODY_TOO_LARGE" } } });
    const garbled = await call(s.endpoint(agent), { key: key.value, raw: "{not json", headers: { accept: "application/json, text/event-stream" } });
    expect(garbled.status).toBe(400);
    expect(garbled.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    expect(garbled.text).not.toMatch(/\bat \S+ \(|node_modules/);
    const sessionless = await post(s.endpoint(agent), key.value, { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
    expect(sessionless.status).toBe(400);
  });

  it("keeps a session to its key, and ends it on DELETE", async () => {
    const { transport } = await s.connect(agent, key.value);
    const sessionId = transport.sessionId!;
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const other = await s.key({ name: "other key" });
    const stolen = await post(s.endpoint(agent), other.value, list, { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" });
    expect(stolen).toMatchObject({ status: 404, json: { error: { code: "NO_SUCH_SESSION" } } });
    await transport.terminateSession();
    const after = await post(s.endpoint(agent), key.value, list, { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" });
    expect(after.status).toBe(404);
  });
});
