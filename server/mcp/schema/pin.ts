// The pin of an MCP tool: a hash of what the model is told about it (name, description, normalised input schema),
// kept when a builder saves an agent, so a tool that changes behind the builder's back is noticed (R-mcp-pin).
import { createHash } from "node:crypto";
import { normaliseToolSchema, type NormaliseOptions } from "./normalise";

export type PinnedTool = { name: string; description?: string; inputSchema: unknown };

/**
 * The pin normalises with one fixed profile, not the agent's provider, so switching an agent's model does not
 * unpin its tools; Anthropic's non-strict profile rewrites the least. A server restating the same schema (keys in
 * another order, `$schema` added, a `$ref` where the part was written out) keeps its pin.
 */
const PIN_OPTIONS: NormaliseOptions = { provider: "anthropic" };

/** sha256, in hex, of the tool's canonical JSON; a schema that cannot be normalised is pinned as the server sent it. */
export function toolPin(tool: PinnedTool): string {
  const normalised = normaliseToolSchema(tool.inputSchema, PIN_OPTIONS);
  const schema = "schema" in normalised ? normalised.schema : { unnormalised: tool.inputSchema ?? null };
  const text = canonicalJson({ name: tool.name, description: tool.description ?? "", schema });
  return createHash("sha256").update(text).digest("hex");
}

/** JSON with every object's keys sorted, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
