// The text behind each pin (R-mcp-pin-withheld): kept when an agent is saved, so that when a server changes a tool
// the agent page can show what the builder accepted beside what the server says now. Rows are keyed by the pin,
// so the same pin is always the same text and saving twice writes nothing new.
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mcpToolPins } from "@/db/schema";
import type { Source } from "@/server/catalog/sources";
import type { JsonSchema } from "@/server/operations/operation";
import type { AgentDeclaration } from "./declaration";
import { resolveEntry } from "./entries";

type Said = { description: string; inputSchema: JsonSchema };

/** Every MCP tool of the declaration whose saved pin is what the server says now, with that text. */
export async function keepPinnedTexts(db: Db, declaration: AgentDeclaration, sources: readonly Source[]): Promise<void> {
  const rows = declaration.tools.flatMap((entry) => {
    const resolved = resolveEntry(entry.entry, sources);
    if (!resolved.ok || !resolved.source.mcp) return [];
    return resolved.operations.flatMap((op) => {
      const tool = resolved.source.mcp!.tools[op.name];
      if (!tool || entry.pins?.[tool.tool] !== tool.pin) return [];
      return [{ pin: tool.pin, name: tool.tool, description: tool.said.description, inputSchema: tool.said.inputSchema }];
    });
  });
  if (rows.length > 0) await db.insert(mcpToolPins).values(rows).onConflictDoNothing();
}

export type ToolChange = {
  tool: string;
  /** What the builder accepted; null when the tool is new to the entry, or was pinned before the studio kept texts. */
  before: Said | null;
  after: Said;
};

/** The tools of one entry that the server changed since they were pinned, each with its old and new text. */
export async function toolChanges(db: Db, entry: AgentDeclaration["tools"][number], sources: readonly Source[]): Promise<ToolChange[]> {
  const resolved = resolveEntry(entry.entry, sources);
  if (!resolved.ok || !resolved.source.mcp) return [];
  const changed = resolved.operations.flatMap((op) => {
    const tool = resolved.source.mcp!.tools[op.name];
    return tool && entry.pins?.[tool.tool] !== tool.pin ? [tool] : [];
  });
  const old = changed.flatMap((tool) => (entry.pins?.[tool.tool] ? [entry.pins[tool.tool]!] : []));
  const kept = old.length > 0 ? await db.select().from(mcpToolPins).where(inArray(mcpToolPins.pin, old)) : [];
  const byPin = new Map(kept.map((row) => [row.pin, { description: row.description, inputSchema: row.inputSchema as JsonSchema }]));
  return changed.map((tool) => ({ tool: tool.tool, before: byPin.get(entry.pins?.[tool.tool] ?? "") ?? null, after: tool.said }));
}
