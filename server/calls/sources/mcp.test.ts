import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import type { McpPool } from "@/server/mcp/pool";
import { fromMcp, mcpTarget } from "./mcp";

describe("an MCP tool's answer as the model reads it (R-mcp-content)", () => {
  it("keeps text as text and images as images", () => {
    const result = fromMcp({ content: [{ type: "text", text: "a dot" }, { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] });
    expect(result).toMatchObject({ outcome: "ok", isError: false, content: [{ type: "text", text: "a dot" }, { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] });
  });

  it("gives an embedded resource and a resource link as text with their URI", () => {
    const { content } = fromMcp({
      content: [
        { type: "resource", resource: { uri: "test://static/resource/1", mimeType: "text/plain", text: "Resource 1" } },
        { type: "resource", resource: { uri: "test://blob", mimeType: "application/gzip", blob: "AAAA" } },
        { type: "resource_link", uri: "test://static/resource/2", name: "Resource 2" },
      ],
    });
    expect(content).toEqual([
      { type: "text", text: "Resource test://static/resource/1:\nResource 1" },
      { type: "text", text: "Resource test://blob (application/gzip, 3 bytes, not shown as text)." },
      { type: "text", text: "Resource link test://static/resource/2 (Resource 2)" },
    ]);
  });

  it("says structuredContent as its JSON when no text says it, and not twice when text does", () => {
    expect(fromMcp({ content: [], structuredContent: { temperature: 21 } }).content).toEqual([{ type: "text", text: '{"temperature":21}' }]);
    expect(fromMcp({ content: [{ type: "text", text: "21 degrees" }], structuredContent: { temperature: 21 } }).content).toHaveLength(1);
  });

  it("reads isError as a failure the model reads, and the connection's own failures by their kind", () => {
    expect(fromMcp({ content: [{ type: "text", text: "no such city" }], isError: true })).toMatchObject({ outcome: "failed", isError: true });
    expect(fromMcp({ content: [{ type: "text", text: "stopped" }], isError: true, _meta: { "quiver/outcome": "transient" } }).outcome).toBe("transient");
    expect(fromMcp({ content: [], isError: true }).content).toEqual([{ type: "text", text: "The tool failed and said nothing more." }]);
  });
});

describe("an MCP tool called as a target", () => {
  it("drops the nulls that stand for a property left out, and hands the server's values to the caller's masker", async () => {
    let sent: Record<string, unknown> | null = null;
    const pool = {
      callTool: async (_db: Db, _id: string, _tool: string, args: Record<string, unknown>) => {
        sent = args;
        return { content: [{ type: "text", text: "ok" }] };
      },
      resolvedValues: () => ["row-secret"],
    } as unknown as McpPool;
    const learned: string[] = [];
    const target = mcpTarget(pool, {} as Db, "server-id", "search", "search", { nullMeansOmitted: ["/limit"], onValues: (values) => learned.push(...values) });
    const call = { settings: {}, signal: new AbortController().signal, progress: () => undefined, waiting: <T>(work: () => Promise<T>) => work() };
    expect((await target.invoke({ query: "tea", limit: null }, call)).outcome).toBe("ok");
    expect(sent).toEqual({ query: "tea" });
    expect(learned).toEqual(["row-secret"]);
  });
});

