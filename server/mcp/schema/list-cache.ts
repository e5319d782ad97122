// A server's tool list normalised once per list: each tool's schema fitted to a provider, and its pin, kept by the
// hash of the list (names, descriptions and schemas as the server sent them) with the provider. Listing a server
// whose tools did not change, as every run's start and the agent pages do, then costs a hash rather than two
// normalisations per tool, 400 for a server of 200 tools (R-mcp-schema-normalise, R-mcp-pin).
import { createHash } from "node:crypto";
import type { Tool } from "@modelcontextprotocol/client";
import { normaliseToolSchema, type Normalised, type Provider } from "./normalise";
import { toolPin } from "./pin";

export type NormalisedTool = { normalised: Normalised | { problem: string }; pin: string };

/** What a list costs to normalise; given by a test to count the work done. */
export type ListWork = { normalise: typeof normaliseToolSchema; pin: typeof toolPin };

/** Lists kept, the least recently used dropped first: a studio's servers, a few providers each, and a change or two. */
const KEPT = 64;

/** The hash a normalised list is kept by: a list restated in other words or for another provider is another list. */
export function listHash(tools: readonly Tool[], provider: Provider): string {
  const hash = createHash("sha256").update(provider);
  for (const tool of tools) hash.update("\n").update(JSON.stringify([tool.name, tool.description ?? "", tool.inputSchema ?? null]));
  return hash.digest("hex");
}

export class NormalisedLists {
  private readonly lists = new Map<string, readonly NormalisedTool[]>();

  constructor(
    private readonly work: ListWork = { normalise: normaliseToolSchema, pin: toolPin },
    private readonly kept = KEPT,
  ) {}

  /** Each tool's normalised schema (or why it has none) and pin, in the list's order; shared, so never changed. */
  of(tools: readonly Tool[], provider: Provider): readonly NormalisedTool[] {
    const key = listHash(tools, provider);
    const known = this.lists.get(key);
    if (known) {
      this.lists.delete(key);
      this.lists.set(key, known);
      return known;
    }
    const made = tools.map((tool) => ({ normalised: this.work.normalise(tool.inputSchema, { provider }), pin: this.work.pin(tool) }));
    this.lists.set(key, made);
    if (this.lists.size > this.kept) this.lists.delete(this.lists.keys().next().value!);
    return made;
  }
}

/** The studio process's lists. */
export const normalisedLists = new NormalisedLists();
