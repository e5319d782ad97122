// What code mode's modules and functions are called, and how their signatures read (docs/rules.md, Code mode).
import { describe, expect, it } from "vitest";
import { functionName, identifier, moduleName, parametersOf, pythonType, signatureOf, uniqueNames } from "./modules";

describe("code mode's names", () => {
  it("R-code-names: every name becomes a Python identifier: '-' and the rest as '_', a leading digit, a keyword", () => {
    expect(identifier("get-tiny-image")).toBe("get_tiny_image");
    expect(identifier("a.b c")).toBe("a_b_c");
    expect(identifier("2fa")).toBe("_2fa");
    expect(identifier("import")).toBe("import_");
    expect(identifier("")).toBe("_");
  });

  it("R-code-names: modules by source: files for Files, the system name, a file's stem, an MCP server's slug, agents", () => {
    expect(moduleName("system", "system:filesystem#read_file")).toBe("files");
    expect(moduleName("system", "system:ask_user")).toBe("ask_user");
    expect(moduleName("tree", "tools/quick-notes.py")).toBe("quick_notes");
    expect(moduleName("mcp", "6f1c2d3e-0000-4000-8000-000000000000", "github_work")).toBe("github_work");
    expect(moduleName("mcp", "6f1c2d3e-0000-4000-8000-000000000000")).toBe("mcp_6f1c2d3e");
    expect(moduleName("agent", "agent:1234")).toBe("agents");
  });

  it("R-code-names: functions by operation: a tree tool without its file, an MCP tool by its own name, a second of one name with _2", () => {
    expect(functionName("tree", "notes__read", "notes")).toBe("read");
    expect(functionName("tree", "weather", "forecast")).toBe("weather");
    expect(functionName("mcp", "github_work__get-issue", "github_work", "get-issue")).toBe("get_issue");
    expect(functionName("system", "read_file", "files")).toBe("read_file");
    const twice = uniqueNames([
      { name: "get_x", operation: "get-x", summary: "", parameters: [] },
      { name: "get_x", operation: "get_x", summary: "", parameters: [] },
    ]);
    expect(twice.map((f) => f.name)).toEqual(["get_x", "get_x_2"]);
  });
});

describe("code mode's signatures", () => {
  it("R-code-arguments: the schema's types as Python writes them", () => {
    expect(pythonType({ type: "array", items: { type: "integer" } })).toBe("list[int]");
    expect(pythonType({ enum: ["a", "b"] })).toBe("Literal['a', 'b']");
    expect(pythonType({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("str | None");
    expect(pythonType({ type: "object" })).toBe("dict");
    expect(pythonType({})).toBe("Any");
  });

  it("R-code-arguments: only the leading required parameters go by position; an optional one without a default reads as X | None = None", () => {
    const parameters = parametersOf({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer", default: 3 }, c: { type: "string" }, d: { type: "boolean" } },
      required: ["a", "c"],
    });
    expect(parameters.map((p) => [p.name, p.positional, p.required])).toEqual([
      ["a", true, true],
      ["b", false, false],
      ["c", false, true],
      ["d", false, false],
    ]);
    expect(signatureOf({ name: "f", operation: "f", summary: "", parameters })).toBe("f(a: str, *, b: int = 3, c: str, d: bool | None = None) -> str");
  });
});
