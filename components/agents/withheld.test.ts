// "What the model sees" holds back exactly the MCP tools a run would withhold (R-mcp-pin-withheld): those the
// saved agent lists as unaccepted, by the names the model reads, and nothing of another entry or source.
import { describe, expect, it } from "vitest";
import type { Source } from "@/server/catalog/sources";
import { withheldOperations } from "./withheld";

const SERVER = "0b9d7c52-6f1e-4f63-9a43-5d2b8f0e1a77";

function mcpSource(tools: Array<{ tool: string; operation: string }>): Source {
  return {
    entry: SERVER,
    kind: "mcp",
    title: "notes server",
    description: "MCP server over stdio.",
    risk: "read",
    capabilities: [],
    operations: [],
    settings_schema: null,
    errors: [],
    offered: true,
    warnings: [],
    unavailable: null,
    mcp: {
      server: SERVER,
      transport: "stdio",
      slug: "notes_server",
      unoffered: [],
      tools: Object.fromEntries(
        tools.map(({ tool, operation }) => [operation, { tool, operation, pin: "0".repeat(64), nullMeansOmitted: [], said: { description: "", inputSchema: {} } }]),
      ),
    },
  } as Source;
}

describe("withheldOperations", () => {
  const sources = [mcpSource([{ tool: "note", operation: "note" }, { tool: "erase", operation: "erase" }, { tool: "a.b", operation: "notes_server__a_b" }])];

  it("names an unaccepted tool by its own name and by the name it takes on a clash", () => {
    const agent = { declaration: { tools: [{ entry: `${SERVER}#note,erase` }] }, unaccepted: [{ index: 0, tools: ["note"] }] };
    expect([...withheldOperations(agent as never, sources)]).toEqual(["note", "notes_server__note"]);
  });

  it("reads a tool whose name breaks the pattern by its operation's name", () => {
    const agent = { declaration: { tools: [{ entry: SERVER }] }, unaccepted: [{ index: 0, tools: ["a.b"] }] };
    expect(withheldOperations(agent as never, sources).has("notes_server__a_b")).toBe(true);
  });

  it("holds back nothing when every tool is accepted, or the entry's source is not listed", () => {
    expect(withheldOperations({ declaration: { tools: [{ entry: SERVER }] }, unaccepted: [] } as never, sources).size).toBe(0);
    const elsewhere = { declaration: { tools: [{ entry: "system:filesystem" }] }, unaccepted: [{ index: 0, tools: ["note"] }] };
    expect(withheldOperations(elsewhere as never, sources).size).toBe(0);
  });
});
