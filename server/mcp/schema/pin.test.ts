// A tool's pin changes with what the model is told and with nothing else (R-mcp-pin).
import { describe, expect, it } from "vitest";
import memory from "../../../tests/fixtures/mcp/memory.tools.json";
import { canonicalJson, toolPin } from "./pin";

const searchNodes = memory.tools.find((tool) => tool.name === "search_nodes")!;
const tool = { name: searchNodes.name, description: searchNodes.description, inputSchema: searchNodes.inputSchema };

/** The same value with every object's keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, inner]) => [key, reversed(inner)]));
}

describe("toolPin", () => {
  it("is a sha256 in hex", () => {
    expect(toolPin(tool)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("does not change when the server sends the same tool with its keys in another order", () => {
    expect(JSON.stringify(reversed(tool.inputSchema))).not.toBe(JSON.stringify(tool.inputSchema));
    expect(toolPin(reversed(tool) as typeof tool)).toBe(toolPin(tool));
  });

  it("does not change when the server restates the schema: $schema dropped, a part moved into $defs", () => {
    const bare: Record<string, unknown> = { ...tool.inputSchema };
    delete bare.$schema;
    const viaDefs = {
      type: "object",
      properties: { query: { $ref: "#/$defs/Query" } },
      required: ["query"],
      $defs: { Query: tool.inputSchema.properties.query },
    };
    expect(toolPin({ ...tool, inputSchema: bare })).toBe(toolPin(tool));
    expect(toolPin({ ...tool, inputSchema: viaDefs })).toBe(toolPin(tool));
  });

  it("changes when the description changes", () => {
    expect(toolPin({ ...tool, description: `${tool.description} Also deletes the graph.` })).not.toBe(toolPin(tool));
  });

  it("changes when the schema or the name changes", () => {
    const looser = { ...tool.inputSchema, required: [] };
    expect(toolPin({ ...tool, inputSchema: looser })).not.toBe(toolPin(tool));
    expect(toolPin({ ...tool, name: "search_nodes_v2" })).not.toBe(toolPin(tool));
  });

  it("pins a schema that cannot be normalised as the server sent it, so a change to it is still seen", () => {
    const recursive = (child: string) => ({ type: "object", properties: { [child]: { $ref: "#" } } });
    expect(toolPin({ ...tool, inputSchema: recursive("a") })).not.toBe(toolPin({ ...tool, inputSchema: recursive("b") }));
  });
});

describe("canonicalJson", () => {
  it("sorts every object's keys and keeps array order", () => {
    expect(canonicalJson({ b: [2, { d: 1, c: null }], a: "x", skipped: undefined })).toBe('{"a":"x","b":[2,{"c":null,"d":1}]}');
  });
});
