// An OAuth server's tools in a run against the loopback model: signed in, a call reaches the server with the token;
// once the grant is revoked, the call that meets it and the next run both say an admin must Connect again, and after
// Disconnect a run says nobody is signed in; each such run goes on (R-mcp-oauth-needs-sign-in).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgent, type Place } from "@/server/agents/store";
import { disconnect, finishConnect, startConnect } from "@/server/mcp/oauth";
import { McpPool } from "@/server/mcp/pool";
import { createServer } from "@/server/mcp/registry";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { call, text } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, type Studio } from "../runtime/setup";
import { oauthServer, type OAuthServer } from "./servers/oauth-server";

const mcpData = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-mcp-oauth-run-"));
const pool = new McpPool({ dataDir: mcpData, connectTimeoutMs: 15_000 });
const ADMIN = { id: "admin-1", name: "Ada", admin: true };
let s: Studio;
let server: OAuthServer;
let agent: string;
let rowId: string;

const AGAIN = "an admin must press Connect on its row in Settings → MCP servers to sign in again";

async function signIn(serverId: string): Promise<void> {
  const { url } = await startConnect(s.database.db, { id: serverId, actor: ADMIN.id, redirectUrl: "http://127.0.0.1:3999/api/mcp/oauth/callback" });
  const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  const q = (name: string) => back.searchParams.get(name);
  const outcome = await finishConnect(s.database.db, { state: q("state"), code: q("code"), error: null, errorDescription: null, iss: q("iss") }, ADMIN, pool);
  expect(outcome).toMatchObject({ serverId, ok: true });
}

async function runOnce() {
  const runId = await s.run(agent);
  const run = await settled(s, runId);
  const events = await s.events(runId);
  return { run, started: dataOf(events, "run_started")[0]!, results: dataOf(events, "tool_result") };
}

beforeAll(async () => {
  server = await oauthServer();
  s = await studio("mcp-oauth-run", {}, { mcp: pool });
  const place: Place = { tree: s.tree, workspace: workspaceDir(s.dataDir), mcp: pool };
  const row = await createServer(s.database.db, ADMIN.id, { name: "tickets", transport: { type: "http", url: server.url, auth: "oauth" } });
  rowId = row.id;
  // An agent can be saved with the server only once its tools can be read: signed in.
  await signIn(row.id);
  agent = (
    await createAgent(s.database.db, ANN.id, { name: "oauth agent", model: { provider: "openai-compatible", model: "loopback", base_url: s.model.url }, tools: [{ entry: `${row.id}#whoami` }] }, place)
  ).id;
  await pool.forget(row.id);
}, 90_000);

beforeEach(() => s.model.reset());

afterAll(async () => {
  await s.close();
  await pool.closeAll();
  await server.close();
  fs.rmSync(mcpData, { recursive: true, force: true });
});

describe("an OAuth server in a run", () => {
  it("calls the tool with the sign-in's token", { timeout: 40_000 }, async () => {
    s.model.reply(call("whoami"), text("Done."));
    const { run, started, results } = await runOnce();
    expect(run.status).toBe("done");
    expect(started.tools.map((tool) => tool.name)).toEqual(["whoami"]);
    expect(results[0]).toMatchObject({ outcome: "ok", text: "Signed in as a client with scopes: tools" });
    for (const value of server.issued) expect(JSON.stringify(s.model.requests.map((r) => r.raw))).not.toContain(value);
  });

  it("after the grant is revoked, the call says an admin must Connect again, then so does the next run, which goes on", { timeout: 60_000 }, async () => {
    server.revokeAll();
    s.model.reply(call("whoami"), text("It is not available."));
    const first = await runOnce();
    expect(first.run.status).toBe("done");
    expect(first.results[0]!.text).toContain(`The sign-in to tickets expired and the server would not renew it: ${AGAIN}.`);

    s.model.reply(text("Nothing to call."));
    const second = await runOnce();
    expect(second.run.status).toBe("done");
    expect(second.started.tools).toEqual([]);
    expect(second.started.problems.join(" ")).toContain(`The sign-in to tickets expired and the server would not renew it: ${AGAIN}`);
  });

  it("after Disconnect, a run says nobody is signed in and goes on", { timeout: 40_000 }, async () => {
    await disconnect(s.database.db, { id: rowId, actor: ADMIN.id }, pool);
    s.model.reply(text("Nothing to call."));
    const { run, started } = await runOnce();
    expect(run.status).toBe("done");
    expect(started.problems.join(" ")).toContain("Nobody has signed in to tickets yet: an admin must press Connect on its row in Settings → MCP servers");
  });
});
