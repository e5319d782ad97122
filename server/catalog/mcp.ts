// The MCP servers an admin registered, as sources: each server's tools as operations, named for the model
// (R-mcp-names), their schemas normalised for the agent's provider (R-mcp-schema-normalise), their behaviour read
// from the tool's annotations (R-mcp-behaviour) and their pins taken (R-mcp-pin). A server that cannot be reached
// is listed, not offered, with why (R-mcp-down-at-start). Edit when MCP tools gain something an operation says.
import type { Tool } from "@modelcontextprotocol/client";
import type { Db } from "@/db/client";
import { TRANSPORT_LABEL } from "@/server/mcp/connection-link";
import type { McpPool } from "@/server/mcp/pool";
import { listServers, type McpServerRow } from "@/server/mcp/registry";
import { normalisedLists } from "@/server/mcp/schema/list-cache";
import type { Provider } from "@/server/mcp/schema/normalise";
import { highestRisk, type JsonSchema, type Operation, type Risk } from "@/server/operations/operation";
import type { McpSourceInfo, Source } from "./source";

/** The MCP row of the timeout table: a tool's bound when the builder sets none lower (R-mcp-timeout). */
export const MCP_TIMEOUT_S = 300;

const OPERATION_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/** "GitHub (work)" → "github_work": lower case, runs of anything else as one _, at most 24 characters. */
export function serverSlug(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 24).replace(/_+$/, "");
  return slug || "mcp";
}

/** The tool's name for the model: its own where it fits the pattern, else the slug and the name made to fit. */
export function operationName(tool: string, slug: string): string {
  if (OPERATION_NAME.test(tool)) return tool;
  return prefixed(slug, tool.replace(/[^a-zA-Z0-9_-]+/g, "_"));
}

/** `slug__name`, cut to the pattern's 128 characters. */
export function prefixed(slug: string, name: string): string {
  return `${slug}__${name}`.slice(0, 128);
}

/** "get-file_contents" → "Get file contents": what a tool without a title is called for people. */
export function humanise(name: string): string {
  const words = name.replace(/[_\-./]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Behaviour from the annotations; a hint the server did not give is not assumed (R-mcp-behaviour). */
function behaviour(tool: Tool): Pick<Operation, "risk" | "read_only" | "destructive" | "concurrent" | "replay"> {
  const hints = tool.annotations ?? {};
  const readOnly = hints.readOnlyHint === true;
  const risk: Risk = hints.openWorldHint === true ? "network" : readOnly ? "read" : "write";
  return {
    risk,
    read_only: readOnly,
    destructive: !readOnly && hints.destructiveHint === true,
    concurrent: readOnly,
    replay: readOnly ? "safe" : hints.idempotentHint === true ? "idempotent" : "manual",
  };
}

export function fromMcpTools(row: Pick<McpServerRow, "id" | "name" | "description" | "transport">, tools: Tool[], provider: Provider): Source {
  const slug = serverSlug(row.name);
  const info: McpSourceInfo = { server: row.id, transport: row.transport.type, slug, tools: {}, unoffered: [] };
  const operations: Operation[] = [];
  // Normalised once per list and provider: a list that did not change is not normalised again.
  const normalisedList = normalisedLists.of(tools, provider);
  for (const [index, tool] of tools.entries()) {
    const { normalised, pin } = normalisedList[index]!;
    if ("problem" in normalised) {
      info.unoffered.push({ tool: tool.name, problem: normalised.problem });
      continue;
    }
    const name = operationName(tool.name, slug);
    if (info.tools[name]) {
      info.unoffered.push({ tool: tool.name, problem: `its name reads as ${name} for a model, like another tool of the server, so only the first is offered` });
      continue;
    }
    info.tools[name] = {
      tool: tool.name,
      operation: name,
      pin,
      nullMeansOmitted: normalised.nullMeansOmitted ?? [],
      said: { description: tool.description ?? "", inputSchema: (tool.inputSchema ?? {}) as JsonSchema },
    };
    operations.push({
      name,
      title: tool.annotations?.title ?? tool.title ?? humanise(tool.name),
      description: tool.description ?? "",
      input_schema: normalised.schema,
      ...behaviour(tool),
      timeout: MCP_TIMEOUT_S,
      capabilities: [],
    });
  }
  return {
    ...mcpSourceHead(row, info),
    risk: highestRisk(operations.map((op) => op.risk)),
    operations,
    offered: true,
    warnings: info.unoffered.map(({ tool, problem }) => `${tool} is not offered: ${problem}`),
  };
}

function mcpSourceHead(row: Pick<McpServerRow, "id" | "name" | "description" | "transport">, info: McpSourceInfo) {
  const over = row.transport.type === "stdio" ? TRANSPORT_LABEL.stdio : "HTTP";
  return {
    entry: row.id,
    kind: "mcp" as const,
    title: row.name,
    description: `MCP server over ${over}${row.description ? `: ${row.description}` : "."}`,
    capabilities: [],
    settings_schema: null,
    errors: [],
    unavailable: null,
    mcp: info,
  };
}

/** A server that did not answer its tools/list: listed so the builder sees it, offering nothing, with why. */
function downSource(row: McpServerRow, why: string): Source {
  const info: McpSourceInfo = { server: row.id, transport: row.transport.type, slug: serverSlug(row.name), tools: {}, unoffered: [] };
  const sentence = why.replace(/[.\s]+$/, "");
  return { ...mcpSourceHead(row, info), risk: "read", operations: [], offered: false, warnings: [], unavailable: `the MCP server ${row.name} could not be reached (${sentence})` };
}

export type McpListing = { db: Db; pool: McpPool; /** Only these servers (an agent's entries), else every one. */ only?: readonly string[]; provider?: Provider };

/**
 * The registered servers (or the named ones that exist) as sources, each listed at the same time. When a named id
 * is not registered, the others are listed too, unread, so a refusal can name the closest (R-mcp-names).
 */
export async function mcpSources({ db, pool, only, provider = "anthropic" }: McpListing): Promise<Source[]> {
  if (only?.length === 0) return [];
  const all = await listServers(db);
  const wanted = only ? new Set(only.map((id) => id.toLowerCase())) : null;
  const rows = wanted ? all.filter((row) => wanted.has(row.id)) : all;
  const unknown = wanted !== null && rows.length < wanted.size;
  const listed = await Promise.all(
    rows.map(async (row) => {
      try {
        const { tools } = await pool.listTools(db, row.id);
        return fromMcpTools(row, tools, provider);
      } catch (err) {
        return downSource(row, err instanceof Error ? err.message : String(err));
      }
    }),
  );
  const unread = unknown ? all.filter((row) => !wanted.has(row.id)).map((row) => unreadSource(row)) : [];
  return [...listed, ...unread];
}

function unreadSource(row: McpServerRow): Source {
  const info: McpSourceInfo = { server: row.id, transport: row.transport.type, slug: serverSlug(row.name), tools: {}, unoffered: [] };
  return { ...mcpSourceHead(row, info), risk: "read", operations: [], offered: false, warnings: [], unavailable: "its tools were not read for this agent" };
}
