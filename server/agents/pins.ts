// Pins of an agent's MCP tools (R-mcp-pin-withheld): taken when the agent is saved, compared when it runs, so a
// server cannot change what it tells the model behind the builder's back. A tool whose name, description or schema
// changed since the save is withheld until a builder accepts the change (acceptToolChange in store.ts).
import type { Operation } from "@/server/operations/operation";
import type { Source } from "@/server/catalog/sources";
import type { AgentDeclaration } from "./declaration";
import { resolveEntry } from "./entries";

export type Pins = Record<string, string>;

type Resolution = { source: Source; operations: Operation[] };

/** Each offered tool's pin now, by the server's tool name. */
export function currentPins(r: Resolution): Pins {
  const pins: Pins = {};
  for (const op of r.operations) {
    const tool = r.source.mcp?.tools[op.name];
    if (tool) pins[tool.tool] = tool.pin;
  }
  return pins;
}

/** The pins to save: those already kept stay (a save is not an acceptance), a tool new to the entry gets today's. */
export function pinsToSave(r: Resolution, kept: Pins | undefined): Pins {
  const now = currentPins(r);
  return Object.fromEntries(Object.entries(now).map(([tool, pin]) => [tool, kept?.[tool] ?? pin]));
}

/** The resolution without the tools whose pin differs from the saved one, and a notice for each. */
export function withholdChanged<R extends Resolution>(r: R, saved: Pins | undefined): { resolution: R; notices: string[] } {
  if (!r.source.mcp) return { resolution: r, notices: [] };
  const notices: string[] = [];
  const operations = r.operations.filter((op) => {
    const tool = r.source.mcp!.tools[op.name];
    if (!tool || saved?.[tool.tool] === tool.pin) return true;
    notices.push(
      saved?.[tool.tool] === undefined
        ? `${tool.tool} of the MCP server ${r.source.title} was not offered when the agent was saved, so it is withheld; a builder must accept it on the agent page.`
        : `${tool.tool} of the MCP server ${r.source.title} changed since the agent was saved (its description or input schema), so it is withheld; a builder must accept the change on the agent page.`,
    );
    return false;
  });
  return { resolution: { ...r, operations }, notices };
}

/** Per MCP entry, the server's tools a run would withhold now: changed since their pin, or never pinned. */
export function unacceptedTools(declaration: AgentDeclaration, sources: readonly Source[]): Array<{ index: number; tools: string[] }> {
  return declaration.tools.flatMap((entry, index) => {
    const resolved = resolveEntry(entry.entry, sources);
    if (!resolved.ok || !resolved.source.mcp) return [];
    const tools = resolved.operations.flatMap((op) => {
      const tool = resolved.source.mcp!.tools[op.name];
      return tool && entry.pins?.[tool.tool] !== tool.pin ? [tool.tool] : [];
    });
    return tools.length > 0 ? [{ index, tools }] : [];
  });
}

