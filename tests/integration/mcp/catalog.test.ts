// MCP servers as sources (server/catalog/mcp.ts): the reference servers listed by name with MCP and the transport,
// found by their tools' names and descriptions, narrowed by `<uuid>#a,b` to exactly those tools with their
// schemas normalised for the provider; annotations read as behaviour; names made unique in an agent; an unknown
// server or tool refused with the closest ones; a schema that cannot be normalised shown with why, not offered.
import fs from "node:fs";
import path from "node:path";
import type { Tool } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveEntry } from "@/server/agents/entries";
import { modelView } from "@/server/agents/model-view";
import { createAgent } from "@/server/agents/store";
import { exportAgent, importAgent } from "@/server/agents/transfer";
import { fromMcpTools, MCP_TIMEOUT_S } from "@/server/catalog/mcp";
import { searchSources } from "@/server/catalog/search";
import { listSources, systemSources, type Source } from "@/server/catalog/sources";
import { createServer } from "@/server/mcp/registry";
import { normaliseToolSchema } from "@/server/mcp/schema/normalise";
import { runCatalog } from "@/server/runtime/catalog";
import { parseDeclaration } from "@/server/agents/declaration";
import { EVERYTHING, MEMORY, openStudio, scratchEnv, type Studio } from "./helpers";

const scratch = scratchEnv("mcp-catalog");
const fixture = (name: string) => (JSON.parse(fs.readFileSync(path.resolve(__dirname, `../../fixtures/mcp/${name}.tools.json`), "utf8")) as { tools: Tool[] }).tools;
let studio: Studio;
let everything: string;
let memory: string;
let sources: Source[];
/** No tree: these tests need no tool host. */
const place = () => ({ tree: path.join(scratch, "no-tree"), workspace: path.join(scratch, "workspace"), mcp: studio.pool });

beforeAll(async () => {
  studio = await openStudio(scratch);
  const db = studio.database.db;
  everything = (await createServer(db, "admin-1", { name: "everything", description: "The reference server.", transport: { type: "stdio", command: "node", args: [EVERYTHING, "stdio"] } })).id;
  const folder = path.join(scratch, "memory");
  fs.mkdirSync(folder);
  memory = (
    await createServer(db, "admin-1", {
      name: "memory",
      transport: { type: "stdio", command: "node", args: [MEMORY], cwd: folder, env: { MEMORY_FILE_PATH: path.join(folder, "memory.jsonl") } },
    })
  ).id;
  sources = (await listSources(place().tree, { db, pool: studio.pool, provider: "openai-compatible" })).sources;
}, 40_000);

afterAll(async () => {
  await studio.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const agent = (tools: Array<{ entry: string }>) => ({
  name: `agent ${Math.random().toString(36).slice(2, 8)}`,
  model: { provider: "openai-compatible" as const, model: "loopback", base_url: "http://127.0.0.1:9/v1" },
  tools,
});

describe("MCP servers as sources (R-mcp-names)", () => {
  it("lists each registered server by its name, saying MCP and the transport", () => {
    const source = sources.find((s) => s.entry === everything)!;
    expect(source).toMatchObject({ kind: "mcp", title: "everything", offered: true, description: "MCP server over stdio: The reference server." });
    expect(source.operations.map((op) => op.name)).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]));
    expect(sources.find((s) => s.entry === memory)!.operations.map((op) => op.name)).toContain("read_graph");
  });

  it("is found in the palette by a tool's name and by words of its description", () => {
    expect(searchSources(sources, "echo")[0]).toMatchObject({ entry: everything, operations: [expect.objectContaining({ name: "echo" })] });
    const byWords = searchSources(sources, "knowledge graph");
    expect(byWords.map((hit) => hit.entry)).toContain(memory);
  });

  it("narrowed to echo and get-sum, gives the model exactly those, their schemas normalised for the provider", () => {
    const view = modelView([`${everything}#get-sum,echo`], sources);
    expect(view.problems).toEqual([]);
    expect(view.tools.map((tool) => tool.name)).toEqual(["echo", "get-sum"]);
    const raw = fixture("everything").find((tool) => tool.name === "get-sum")!;
    const normalised = normaliseToolSchema(raw.inputSchema, { provider: "openai-compatible" });
    expect("schema" in normalised && view.tools[1]!.input_schema).toEqual("schema" in normalised && normalised.schema);
    expect(view.tools[1]!.input_schema).not.toHaveProperty("$schema");
  });

  it("reads the behaviour from the annotations, with the MCP row's 300 s bound (R-mcp-behaviour, R-mcp-timeout)", () => {
    const ops = (id: string) => new Map(sources.find((s) => s.entry === id)!.operations.map((op) => [op.name, op]));
    expect(ops(everything).get("echo")).toMatchObject({ title: "Echo Tool", read_only: true, concurrent: true, destructive: false, replay: "safe", risk: "read", timeout: MCP_TIMEOUT_S });
    expect(ops(everything).get("gzip-file-as-resource")).toMatchObject({ risk: "network", read_only: false, replay: "idempotent" });
    expect(ops(memory).get("delete_entities")).toMatchObject({ destructive: true, replay: "idempotent", risk: "write", concurrent: false });
    expect(ops(memory).get("create_entities")).toMatchObject({ destructive: false, replay: "manual" });
  });

  it("bounds a call at 300 s unless the builder's limit for the operation is lower (R-mcp-timeout)", () => {
    const source = sources.find((s) => s.entry === everything)!;
    const pins = Object.fromEntries(Object.values(source.mcp!.tools).map((tool) => [tool.tool, tool.pin]));
    const { declaration } = parseDeclaration({ ...agent([]), tools: [{ entry: `${everything}#echo,get-sum`, timeouts: { echo: 30, "get-sum": 450 }, pins }] });
    const catalog = runCatalog(declaration!, sources, new Map());
    expect(catalog.operations.map((op) => [op.name, op.timeout])).toEqual([["echo", 30], ["get-sum", 300]]);
  });

  it("saves an agent naming a server by its uuid, canonical in the source's order", async () => {
    const saved = await createAgent(studio.database.db, "builder-1", agent([{ entry: `${everything.toUpperCase()}#get-sum,echo` }]), place());
    expect(saved.declaration.tools[0]!.entry).toBe(`${everything}#echo,get-sum`);
    expect(Object.keys(saved.declaration.tools[0]!.pins ?? {}).sort()).toEqual(["echo", "get-sum"]);
  });

  it("carries the pins through export and import as they are (R-mcp-pin-withheld)", async () => {
    const db = studio.database.db;
    const saved = await createAgent(db, "builder-1", agent([{ entry: `${memory}#read_graph` }]), place());
    const stale = { read_graph: "0".repeat(64) };
    const exported = JSON.parse((await exportAgent(db, saved.id, place())).json) as { tools: Array<{ pins?: Record<string, string> }> };
    expect(exported.tools[0]!.pins).toEqual(saved.declaration.tools[0]!.pins);
    exported.tools[0]!.pins = stale;
    const { agent: imported } = await importAgent(db, "builder-1", JSON.stringify(exported), place());
    expect(imported.declaration.tools[0]!.pins).toEqual(stale);
  });

  it("refuses an unknown server with the closest registered ones, and an unknown tool with the closest names", async () => {
    const typo = `${everything.slice(0, -1)}${everything.endsWith("0") ? "1" : "0"}`;
    await expect(createAgent(studio.database.db, "builder-1", agent([{ entry: typo }]), place())).rejects.toThrow(
      new RegExp(`There is no MCP server ${typo}; .* The closest registered one is everything \\(${everything}\\)`),
    );
    await expect(createAgent(studio.database.db, "builder-1", agent([{ entry: `${everything}#ecoh` }]), place())).rejects.toThrow(
      /The MCP server everything \(.*\) has no tool ecoh\. Did you mean echo\?/,
    );
  });
});

describe("names and schemas an agent cannot take as they are", () => {
  const row = { id: "0f8fad5b-d9cb-469f-a165-70867728950e", name: "Files (work)", description: "", transport: { type: "stdio" as const, command: "node", args: [], cwd: null, env: {} } };

  it("prefixes a tool that clashes with another source's operation with the server's slug, and one whose name breaks the pattern", () => {
    const files = fromMcpTools(row, [...fixture("filesystem"), { name: "get.file", inputSchema: { type: "object" } }], "anthropic");
    expect(files.operations.map((op) => op.name)).toContain("files_work__get_file");
    const view = modelView(["system:filesystem#read_file", `${row.id}#read_file,files_work__get_file`], [...systemSources(), files]);
    expect(view.problems).toEqual([]);
    expect(view.tools.map((tool) => tool.name)).toEqual(["read_file", "files_work__read_file", "files_work__get_file"]);
  });

  it("shows a tool whose schema cannot be normalised with why, and does not offer it (R-mcp-schema-cycle)", () => {
    const recursive = { name: "tree", inputSchema: { type: "object", properties: { node: { $ref: "#/$defs/Node" } }, $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } } } } };
    const source = fromMcpTools(row, [{ name: "fine", inputSchema: { type: "object" } }, recursive as Tool], "openai");
    expect(source.operations.map((op) => op.name)).toEqual(["fine"]);
    expect(source.warnings[0]).toMatch(/^tree is not offered: .*refers to itself/);
    const refused = resolveEntry(`${row.id}#tree`, [source]);
    expect(refused.ok === false && refused.problems[0]).toMatch(/lists tree, but it is not offered: .*refers to itself/);
  });
});
