// An MCP tool called in a run receives the call's idempotency key in its `_meta` (R-journal-idempotent): the key of
// its step, the same one a replay after a takeover sends again, so a server that honours it applies its effect once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "@/server/agents/store";
import { McpPool } from "@/server/mcp/pool";
import { createServer } from "@/server/mcp/registry";
import { idempotencyKey } from "@/server/runtime/journal";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { call, text } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, type Studio } from "../runtime/setup";
import { PROBE } from "./helpers";

const mcpData = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-mcp-idempotency-"));
const pool = new McpPool({ dataDir: mcpData, connectTimeoutMs: 15_000 });
let s: Studio;

beforeAll(async () => {
  s = await studio("mcp-idempotency", {}, { mcp: pool });
}, 30_000);

afterAll(async () => {
  await s.close();
  await pool.closeAll();
  fs.rmSync(mcpData, { recursive: true, force: true });
});

describe("an MCP call's idempotency key", () => {
  it("R-journal-idempotent: is sent in the call's _meta as quiver/idempotency-key, the key of its step", { timeout: 40_000 }, async () => {
    const probe = (await createServer(s.database.db, "admin-1", { name: "probe", transport: { type: "stdio", command: "node", args: [PROBE] } })).id;
    const place = { tree: s.tree, workspace: workspaceDir(s.dataDir), mcp: pool };
    const declaration = { name: "meta reader", model: { provider: "openai-compatible" as const, model: "loopback", base_url: s.model.url }, tools: [{ entry: `${probe}#meta` }] };
    const agent = (await createAgent(s.database.db, ANN.id, declaration, place)).id;
    s.model.reply(call("meta", {}), text("Read it."));
    const runId = await s.run(agent);
    expect((await settled(s, runId)).status).toBe("done");
    const [result] = dataOf(await s.events(runId), "tool_result");
    expect(JSON.parse(result!.text)).toEqual({ "quiver/idempotency-key": idempotencyKey(runId, { step: 1, index: 1 }) });
  });
});
