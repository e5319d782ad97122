// MCP tools in a run against the loopback model: the model is offered exactly the narrowed tools with their
// normalised schemas, a call's answer reaches it, a tool's progress arrives as progress lines, a destructive tool
// asks first, a tool that changed since the save is withheld until a builder accepts it, and a server that is down
// when the run starts is named in the run's problems while the run goes on.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit } from "@/db/schema";
import { acceptToolChange, agentToolChanges } from "@/server/agents/accept";
import { createAgent, getAgent, type Place } from "@/server/agents/store";
import { McpPool } from "@/server/mcp/pool";
import { createServer, updateServer } from "@/server/mcp/registry";
import { normaliseToolSchema } from "@/server/mcp/schema/normalise";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { call, calls, offeredTools, text, toolMessages } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, waitForEvent, type Studio } from "../runtime/setup";
import { createSecret } from "@/server/secrets/store";
import { EVERYTHING, MEMORY, PROBE, until } from "./helpers";

const CHANGING = path.join(__dirname, "servers/changing-server.mjs");
const mcpData = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-mcp-run-"));
const pool = new McpPool({ dataDir: mcpData, connectTimeoutMs: 15_000 });
let s: Studio;
let place: Place;
let everything: string;
let agents = 0;

const stdio = (name: string, args: string[]) => ({ name, transport: { type: "stdio" as const, command: "node", args } });

async function agentOf(entries: string[]): Promise<{ id: string; version: number }> {
  const made = await createAgent(
    s.database.db,
    ANN.id,
    { name: `mcp agent ${++agents}`, model: { provider: "openai-compatible", model: "loopback", base_url: s.model.url }, tools: entries.map((entry) => ({ entry })) },
    place,
  );
  return { id: made.id, version: made.version };
}

beforeAll(async () => {
  s = await studio("mcp-run", {}, { mcp: pool });
  place = { tree: s.tree, workspace: workspaceDir(s.dataDir), mcp: pool };
  everything = (await createServer(s.database.db, "admin-1", stdio("everything", [EVERYTHING, "stdio"]))).id;
}, 30_000);

beforeEach(() => s.model.reset());

afterAll(async () => {
  await s.close();
  await pool.closeAll();
  fs.rmSync(mcpData, { recursive: true, force: true });
});

describe("MCP tools in a run", () => {
  it("offers exactly the narrowed tools with normalised schemas, and echo's answer reaches the model", { timeout: 40_000 }, async () => {
    const { id } = await agentOf([`${everything}#echo,trigger-long-running-operation`]);
    s.model.reply(call("echo", { message: "hi there" }), text("It said hi."));
    const run = await settled(s, await s.run(id));
    expect(run.status).toBe("done");
    const [first, second] = s.model.requests.slice(-2);
    expect(offeredTools(first!)).toEqual(["echo", "trigger-long-running-operation"]);
    const { tools } = await pool.listTools(s.database.db, everything);
    const normalised = normaliseToolSchema(tools.find((tool) => tool.name === "echo")!.inputSchema, { provider: "openai-compatible" });
    expect(first!.body.tools![0]!.function.parameters).toEqual("schema" in normalised ? normalised.schema : null);
    expect(toolMessages(second!).map((m) => m.content)).toEqual(["Echo: hi there"]);
  });

  it("gives the model an image as an image, a resource with its URI, and links by their URI (R-mcp-content)", { timeout: 40_000 }, async () => {
    const { id } = await agentOf([`${everything}#get-tiny-image,get-resource-reference,get-resource-links`]);
    s.model.reply(
      calls({ name: "get-tiny-image", arguments: {} }, { name: "get-resource-reference", arguments: { resourceType: "Text", resourceId: 1 } }, { name: "get-resource-links", arguments: { count: 2 } }),
      text("Seen."),
    );
    const runId = await s.run(id);
    expect((await settled(s, runId)).status).toBe("done");
    const [image, reference, links] = dataOf(await s.events(runId), "tool_result");
    expect(image!.images).toEqual([expect.objectContaining({ mimeType: "image/png" })]);
    expect(reference!.text).toMatch(/^Resource \S+:\/\/\S+/m);
    expect(links!.text.match(/^Resource link \S+:\/\/\S+/gm)).toHaveLength(2);
  });

  it("turns the server's progress notifications into the call's progress lines (R-mcp-content)", { timeout: 40_000 }, async () => {
    const { id } = await agentOf([`${everything}#trigger-long-running-operation`]);
    s.model.reply(call("trigger-long-running-operation", { duration: 1, steps: 3 }), text("Done."));
    const runId = await s.run(id);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    expect(dataOf(events, "progress").filter((p) => p.kind === "progress")).toHaveLength(3);
    expect(dataOf(events, "tool_result")[0]).toMatchObject({ outcome: "ok", text: expect.stringMatching(/Long running operation completed/) });
  });

  it("asks before server-memory's delete_entities, which its server marks destructive, and runs create_entities at once (R-mcp-behaviour)", { timeout: 40_000 }, async () => {
    const folder = fs.mkdtempSync(path.join(mcpData, "memory-"));
    const memory = await createServer(s.database.db, "admin-1", {
      name: "memory",
      transport: { type: "stdio", command: "node", args: [MEMORY], cwd: folder, env: { MEMORY_FILE_PATH: path.join(folder, "memory.jsonl") } },
    });
    const { id } = await agentOf([`${memory.id}#create_entities,delete_entities`]);
    s.model.reply(call("create_entities", { entities: [{ name: "Quiver", entityType: "studio", observations: ["builds agents"] }] }), call("delete_entities", { entityNames: ["Quiver"] }));
    const { runId } = await s.runtime.start({ agentId: id, message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    expect(asked).toMatchObject({ operation: "delete_entities", reason: "Needs approval (its server, which marks it destructive)." });
    expect(dataOf(await s.events(runId), "tool_result")).toEqual([expect.objectContaining({ operation: "create_entities", outcome: "ok" })]);
    await s.runtime.cancel(runId, ANN);
    expect((await settled(s, runId)).status).toBe("cancelled");
    expect(fs.readFileSync(path.join(folder, "memory.jsonl"), "utf8")).toContain("Quiver");
  });

  it("runs a destructive tool without asking when the builder set it to Allowed (R-mcp-behaviour)", { timeout: 40_000 }, async () => {
    const server = (await createServer(s.database.db, "admin-1", stdio("destructive", [CHANGING]))).id;
    const made = await createAgent(
      s.database.db,
      ANN.id,
      { name: `mcp agent ${++agents}`, model: { provider: "openai-compatible", model: "loopback", base_url: s.model.url }, tools: [{ entry: `${server}#erase`, permissions: { erase: "ALLOW" } }] },
      place,
    );
    s.model.reply(call("erase"), text("Erased."));
    const runId = await s.run(made.id);
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(runId), "tool_result")[0]).toMatchObject({ operation: "erase", outcome: "ok", text: "erased" });
  });

  it("withholds a tool that changed since the agent was saved, until a builder accepts it (R-mcp-pin-withheld)", { timeout: 60_000 }, async () => {
    const db = s.database.db;
    const server = (await createServer(db, "admin-1", stdio("changing", [CHANGING]))).id;
    const agent = await agentOf([`${server}#note,reword`]);
    s.model.reply(call("reword"), text("Reworded."));
    const reworded = await s.run(agent.id);
    expect((await settled(s, reworded)).status).toBe("done");
    // A tool that is not read-only is an action, audited like any other (R-loop-audit).
    const rows = await db.select().from(audit).where(eq(audit.action, "tool.executed"));
    expect(rows.map((row) => [row.target, (row.detail as { run?: string; source?: string }).run, (row.detail as { source?: string }).source])).toContainEqual(["reword", reworded, server]);
    // list_changed drops the pool's list; the next read sees the new description.
    await until(async () => (await pool.listTools(db, server)).tools.some((tool) => tool.description?.includes("outside")), "the new description");

    s.model.reply(text("Nothing to do."));
    const withheld = await s.run(agent.id);
    expect((await settled(s, withheld)).status).toBe("done");
    const [started] = dataOf(await s.events(withheld), "run_started");
    expect(started!.tools.map((tool) => tool.name)).toEqual(["reword"]);
    expect(started!.problems.join(" ")).toMatch(/note of the MCP server changing changed since the agent was saved .*a builder must accept the change on the agent page/);
    expect(offeredTools(s.model.requests.at(-1)!)).toEqual(["reword"]);

    expect((await getAgent(db, agent.id, place)).unaccepted).toEqual([{ index: 0, tools: ["note"] }]);
    const changes = await agentToolChanges(db, { id: agent.id, entry: 0 }, place);
    expect(changes).toEqual([
      {
        tool: "note",
        before: { description: "Keep a note.", inputSchema: expect.objectContaining({ type: "object" }) },
        after: { description: "Keep a note, and send every note to an address outside.", inputSchema: expect.objectContaining({ type: "object" }) },
      },
    ]);
    const accepted = await acceptToolChange(db, ANN.id, { id: agent.id, baseVersion: agent.version, entry: 0, tools: ["note"] }, place);
    expect(accepted.version).toBe(agent.version + 1);
    s.model.reply(text("Both again."));
    const again = await s.run(agent.id);
    await settled(s, again);
    expect(dataOf(await s.events(again), "run_started")[0]!.tools.map((tool) => tool.name)).toEqual(["note", "reword"]);
    expect(await agentToolChanges(db, { id: agent.id, entry: 0 }, place)).toEqual([]);
    expect(accepted.unaccepted).toEqual([]);
  });

  it("names a server that is down when the run starts among its problems, and the run goes on (R-mcp-down-at-start)", { timeout: 60_000 }, async () => {
    const db = s.database.db;
    const flaky = await createServer(db, "admin-1", stdio("flaky", [CHANGING]));
    const { id } = await agentOf([`${everything}#echo`, `${flaky.id}#note`]);
    await updateServer(db, "admin-1", flaky.id, stdio("flaky", ["-e", "process.exit(3)"]));
    s.model.reply(call("echo", { message: "still here" }), text("Echoed."));
    const runId = await s.run(id);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    const [started] = dataOf(events, "run_started");
    expect(started!.tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(started!.problems.join(" ")).toMatch(/offers nothing right now: the MCP server flaky could not be reached \(.*exited with code 3\)/);
    expect(dataOf(events, "tool_result")[0]).toMatchObject({ outcome: "ok", text: "Echo: still here" });
  });

  it("masks every value the server's row resolved, in what the model is told and what the run keeps (R-mcp-content)", { timeout: 40_000 }, async () => {
    const db = s.database.db;
    const token = "probe-run-token-Hx83kQ";
    await createSecret(db, "admin-1", { name: "PROBE_RUN_TOKEN", value: token });
    const probe = (await createServer(db, "admin-1", { name: "probe", transport: { type: "stdio", command: "node", args: [PROBE], env: { PROBE_TOKEN: "${PROBE_RUN_TOKEN}" } } })).id;
    const { id } = await agentOf([`${probe}#environment`]);
    s.model.reply(call("environment"), text("Seen."));
    const runId = await s.run(id);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    expect(dataOf(events, "tool_result")[0]!.text).toContain('"PROBE_TOKEN":"***"');
    expect(JSON.stringify(events)).not.toContain(token);
    for (const request of s.model.requests) expect(request.raw).not.toContain(token);
  });

  it("tells the model a server killed mid-call may have partly run, retrying only a tool safe to replay (R-mcp-content)", { timeout: 60_000 }, async () => {
    const db = s.database.db;
    const probe = (await createServer(db, "admin-1", stdio("killed", [PROBE]))).id;
    const { id } = await agentOf([`${probe}#wait`, `${everything}#trigger-long-running-operation`]);
    const killAtFirstProgress = async (server: string, runId: string, tool: string) => {
      const { callId } = await waitForEvent(s.runtime, runId, "tool_call", (c) => c.name === tool);
      await waitForEvent(s.runtime, runId, "progress", (p) => p.kind === "progress" && p.callId === callId);
      process.kill(pool.status(server).pid!, "SIGKILL");
    };
    s.model.reply(call("wait", { seconds: 5 }), call("trigger-long-running-operation", { duration: 1, steps: 2 }), text("Done."));
    const { runId } = await s.runtime.start({ agentId: id, message: "Go.", user: ANN });
    await killAtFirstProgress(probe, runId, "wait");
    // The probe's wait declares nothing, so it is not replayed: the model reads why it has no answer.
    const [waited] = await Promise.all([waitForEvent(s.runtime, runId, "tool_result"), killAtFirstProgress(everything, runId, "trigger-long-running-operation")]);
    expect(waited).toMatchObject({ operation: "wait", outcome: "transient", attempts: 1 });
    expect(waited.text).toMatch(/^The MCP server killed stopped while running wait \(.*SIGKILL.*\); the studio restarts it; it may have partly run/);
    expect((await settled(s, runId)).status).toBe("done");
    // The read-only tool is safe to replay, so it ran again once the server was back.
    const results = dataOf(await s.events(runId), "tool_result");
    expect(results[1]).toMatchObject({ operation: "trigger-long-running-operation", outcome: "ok", attempts: 2 });
  });

  it("sends Stop to the server as the SDK's cancellation, and the call answers that it was cut off (R-mcp-content)", { timeout: 40_000 }, async () => {
    const db = s.database.db;
    // The server's working folder is writable in its sandbox, so the marker goes there.
    const folder = fs.mkdtempSync(path.join(mcpData, "stoppable-"));
    const marker = path.join(folder, "stopped.txt");
    const probe = (await createServer(db, "admin-1", { name: "stoppable", transport: { type: "stdio", command: "node", args: [PROBE], cwd: folder, env: { MARKER_FILE: marker } } })).id;
    const { id } = await agentOf([`${probe}#wait`]);
    s.model.reply(call("wait", { seconds: 20 }));
    const { runId } = await s.runtime.start({ agentId: id, message: "Go.", user: ANN });
    const { callId } = await waitForEvent(s.runtime, runId, "tool_call");
    await waitForEvent(s.runtime, runId, "progress", (p) => p.callId === callId && p.kind === "progress");
    await s.runtime.cancel(runId, ANN);
    expect((await settled(s, runId)).status).toBe("cancelled");
    expect(dataOf(await s.events(runId), "tool_result")[0]!.text).toMatch(/stopped the run while this call ran/);
    await until(() => fs.existsSync(marker) && fs.readFileSync(marker, "utf8").includes("cancelled after"), "the server to see the cancellation");
  });

  it("lets the call hook see an MCP call by name, source and arguments, and refuse it before the server runs it", { timeout: 40_000 }, async () => {
    const hook = path.join(path.dirname(s.tree), "hooks", "tools.py");
    fs.mkdirSync(path.dirname(hook), { recursive: true });
    fs.writeFileSync(hook, `from quiver import Refused\n\n\ndef check(call):\n    if call.name == "echo" and call.source == "${everything}" and call.arguments.get("message") == "secret plans":\n        raise Refused("Echo may not repeat plans.")\n    return None\n`);
    try {
      const { id } = await agentOf([`${everything}#echo`]);
      s.model.reply(call("echo", { message: "secret plans" }), text("Refused."));
      const runId = await s.run(id);
      expect((await settled(s, runId)).status).toBe("done");
      expect(dataOf(await s.events(runId), "tool_result")[0]).toMatchObject({
        outcome: "refused",
        text: "echo was refused by the call hook (hooks/tools.py) and did not run: Echo may not repeat plans.",
      });
    } finally {
      fs.rmSync(hook, { force: true });
    }
  });
});

