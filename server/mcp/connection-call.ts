// What a tools/call answers besides the server's own result: the result masked with the row's values, and a call
// that did not get one (the server stopped, the connection dropped, no answer in time, the server refused the
// request) as an error result the model reads, saying whether it may have partly run.
import { ProtocolError, SdkError, SdkErrorCode, type CallToolResult } from "@modelcontextprotocol/client";
import type { Masker } from "@/server/secrets/mask";
import { StartFailure, type Link } from "./connection-link";

/** The result with every text masked; images' and audio's data are left as they are (masking is for text). */
export function maskResult(result: CallToolResult, mask: Masker): CallToolResult {
  if (!mask.active) return result;
  const content = result.content.map((part) => (part.type === "image" || part.type === "audio" ? part : mask.deep(part)));
  const masked: CallToolResult = { ...result, content };
  if (result.structuredContent !== undefined) masked.structuredContent = mask.deep(result.structuredContent);
  return masked;
}

/**
 * `quiver/outcome` tells the studio's call pipeline what kind of failure it was: a server that was not there or
 * went away mid-call is "transient" (retried only where the tool's replay policy allows), no answer in time is a
 * "timeout"; the server's own refusals carry none.
 */
const failed = (text: string, outcome?: "transient" | "timeout"): CallToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
  ...(outcome ? { _meta: { "quiver/outcome": outcome } } : {}),
});

type Context = { server: string; tool: string; link: Link | null; timeoutMs: number; mask: Masker };

/** A call that got no result from the server, as the sentence the model and the person read. */
export function callFailure(error: unknown, { server, tool, link, timeoutMs, mask }: Context): CallToolResult {
  const partly = "it may have partly run, so check its effects before calling it again";
  if (error instanceof StartFailure) return failed(mask(`The MCP server ${server} is not available, so ${tool} did not run: ${error.message}`), "transient");
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return failed(`The MCP server ${server} did not answer ${tool} within ${Math.round(timeoutMs / 1000)} s, so the studio stopped waiting; ${partly}.`, "timeout");
  }
  const exited = link?.exited() ?? null;
  if (exited || (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)) {
    const how = exited ?? "the connection closed";
    const restart = link?.kind === "stdio" ? "; the studio restarts it" : "";
    return failed(mask(`The MCP server ${server} stopped while running ${tool} (${how})${restart}; ${partly}.`), "transient");
  }
  if (error instanceof ProtocolError) return failed(mask(`The MCP server ${server} refused ${tool}: ${error.message}`));
  const message = error instanceof Error ? error.message : String(error);
  return failed(mask(`The call of ${tool} on the MCP server ${server} failed (${message.slice(0, 300)}); ${partly}.`));
}
