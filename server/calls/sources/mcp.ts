// An MCP server's tool as a call target: called on the server's one connection (server/mcp/pool.ts) with the
// arguments the model wrote, the nulls that stand for "left out" taken out (R-mcp-schema-normalise), progress as
// lines, the caller's stop as the SDK's cancellation, and the answer's content in the shape every source answers
// in (R-mcp-content). The connection masks what the server answers with its row's values; those values also join
// the caller's masker, so nothing stored afterwards holds them.
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Db } from "@/db/client";
import type { CallResult, Content } from "@/server/host/protocol";
import type { McpPool } from "@/server/mcp/pool";
import { omitNullsMeaningOmitted } from "@/server/mcp/schema/arguments";
import type { CallTarget } from "../target";
import { progressLine } from "./tree";

export type McpCallOptions = {
  /** Argument paths where a null means "left out" (strict normalisation). */
  nullMeansOmitted?: readonly string[];
  /** The server's resolved values, each time a call is made, for the caller's masker. */
  onValues?: (values: readonly string[]) => void;
  /** The same for every replay of one step of a run (R-journal-idempotent), so a server that honours it acts once. */
  idempotencyKey?: string;
};

/** Where an MCP call carries its idempotency key. */
export const IDEMPOTENCY_META = "quiver/idempotency-key";

type Part = CallToolResult["content"][number];

function resourceText(resource: { uri: string; mimeType?: string; text?: string; blob?: string }): string {
  if (typeof resource.text === "string") return `Resource ${resource.uri}:\n${resource.text}`;
  const size = typeof resource.blob === "string" ? `, ${Math.round((resource.blob.length * 3) / 4)} bytes` : "";
  return `Resource ${resource.uri} (${resource.mimeType ?? "binary"}${size}, not shown as text).`;
}

function partOf(part: Part): Content {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
      return { type: "image", mimeType: part.mimeType, data: part.data };
    case "resource":
      return { type: "text", text: resourceText(part.resource) };
    case "resource_link":
      return { type: "text", text: `Resource link ${part.uri}${part.name ? ` (${part.name})` : ""}${part.description ? `: ${part.description}` : ""}` };
    case "audio":
      return { type: "text", text: `[audio: ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes, which the model cannot hear]` };
    default:
      return { type: "text", text: JSON.stringify(part) };
  }
}

/** The server's answer in the studio's shape: `isError` a failure the model reads, structuredContent when no text says it. */
export function fromMcp(result: CallToolResult): CallResult {
  const content = (result.content ?? []).map(partOf);
  if (!content.some((part) => part.type === "text") && result.structuredContent !== undefined) {
    content.unshift({ type: "text", text: JSON.stringify(result.structuredContent) });
  }
  if (content.length === 0) content.push({ type: "text", text: result.isError ? "The tool failed and said nothing more." : "" });
  const isError = result.isError === true;
  // The connection's own failures say what kind they were (server/mcp/connection-call.ts); a server's say nothing.
  const kind = result._meta?.["quiver/outcome"];
  const outcome = !isError ? "ok" : kind === "transient" || kind === "timeout" ? kind : "failed";
  return { content, isError, outcome, durationMs: null, truncated: null };
}

/** `server` is the row's id, `tool` the server's own name for the tool; `name` is what answers about the call say. */
export function mcpTarget(pool: McpPool, db: Db, server: string, tool: string, name: string, options: McpCallOptions = {}): CallTarget {
  return {
    name,
    graceMs: 0,
    async invoke(args, call) {
      const sent = options.nullMeansOmitted?.length ? omitNullsMeaningOmitted(args, options.nullMeansOmitted) : args;
      try {
        const result = await pool.callTool(db, server, tool, sent, {
          signal: call.signal,
          onProgress: (progress) => call.progress(progressLine(progress)),
          ...(options.idempotencyKey ? { meta: { [IDEMPOTENCY_META]: options.idempotencyKey } } : {}),
        });
        return fromMcp(result);
      } finally {
        options.onValues?.(pool.resolvedValues(server));
      }
    },
  };
}
