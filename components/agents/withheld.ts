// Which tools in "What the model sees" a run would hold back: an MCP server's tools that changed since the agent
// was saved, until a builder accepts them (R-mcp-pin-withheld). The model view lists the draft's tools by the
// names the model reads, so each withheld tool is named both ways it can be (its own, or slug__name on a clash).
import type { AgentDeclaration } from "@/server/agents/declaration";
import type { Source } from "@/server/catalog/sources";
import { sourceOf } from "./draft";

type Saved = { declaration: Pick<AgentDeclaration, "tools">; unaccepted: ReadonlyArray<{ index: number; tools: readonly string[] }> };

export function withheldOperations(agent: Saved, sources: readonly Source[]): ReadonlySet<string> {
  const names = new Set<string>();
  for (const { index, tools } of agent.unaccepted) {
    const info = sourceOf(agent.declaration.tools[index]?.entry ?? "", sources)?.mcp;
    if (!info) continue;
    for (const tool of Object.values(info.tools)) {
      if (!tools.includes(tool.tool)) continue;
      names.add(tool.operation);
      names.add(`${info.slug}__${tool.operation}`);
    }
  }
  return names;
}
