// The run's catalog, read ONCE when the run starts (R-loop-catalog-once: a changed signature reaches the model on
// the next run): the exact tool list the model is offered (server/agents/model-view.ts), and per offered operation what the
// loop needs to call it (its entry, behaviour, voice lines). It is kept in the run's first event, so a run resumed
// after a restart uses the same list rather than reading the catalog again. An operation its module's check() gates
// is in it even when held back at the start: whether it is offered is decided each turn (offer.ts, R-check-turn).
import { isConnectionModel, type AgentDeclaration, type Provider } from "@/server/agents/declaration";
import { mcpServersIn } from "@/server/agents/entries";
import { modelTool, resolveAgent, type ModelTool } from "@/server/agents/model-view";
import type { JsonSchema, Replay, Risk } from "@/server/operations/operation";
import type { McpListing } from "@/server/catalog/mcp";
import { listSources, type Source } from "@/server/catalog/sources";
import { withSpecialists } from "@/server/agents/specialists";
import type { Db } from "@/db/client";
import type { CatalogFile } from "@/server/host";
import type { LanguageModelV4ProviderTool } from "@ai-sdk/provider";
import { providerTool, providerToolOf, type ProviderToolSpec } from "./provider-tools";

export type Voice = { announce: string; heartbeat: string[]; complete: string; fail: string };

/** One operation the model is offered in this run, with everything dispatch needs. */
export type RunOperation = {
  name: string;
  title: string;
  input_schema: JsonSchema;
  /** Index of the declaration's entry it comes from: its settings and permissions. */
  entry: number;
  /** The entry's source: "system:filesystem", "tools/notes.py". */
  source: string;
  kind: "system" | "tree" | "mcp" | "agent";
  risk: Risk;
  read_only: boolean;
  /** Asks the person by default unless the builder chose (R-mcp-behaviour); absent in runs from before MCP. */
  destructive?: boolean;
  /** An MCP server's tool: the server, the tool's own name, the operation's name in its source, and the nulls that mean "left out". */
  mcp?: { server: string; tool: string; operation: string; nullMeansOmitted: string[] };
  concurrent: boolean;
  timeout: number | null;
  replay: Replay;
  /** Waits on a person, so no timeout and no heartbeats (R-call-interactive). */
  interactive: boolean;
  /** ARG_TIMEOUT (R-module-attributes): the call's own `timeout` argument sets its bound, up to max_timeout. */
  arg_timeout: boolean;
  max_timeout: number;
  voice: Voice | null;
  /**
   * Present when its module's check() decides, each turn, whether it is offered (R-check-turn): the description the
   * model reads when it is. Absent in runs from before check() gated turns.
   */
  gate?: { description: string };
  /** A Tool class's operation: the tool host answers per call whether it is concurrent and destructive (R-tool-class-per-call). */
  per_call?: boolean;
  /** A module's BUILT_IN tool, handed to the model's provider as its own and never run here (R-builtin-provider). */
  provider?: LanguageModelV4ProviderTool;
};

export type RunCatalog = {
  /** Exactly what the model is offered, in order. */
  tools: ModelTool[];
  operations: RunOperation[];
  /** Operations the studio has that this agent was not given: a call to one is refused, never run. */
  withheld: string[];
  /** Entries that offer nothing in this run, each in a sentence. */
  problems: string[];
};

type Extra = Pick<RunOperation, "interactive" | "arg_timeout" | "max_timeout" | "voice" | "per_call"> & { checked: boolean; builtIn: ProviderToolSpec | null };

const NO_EXTRA: Extra = { interactive: false, arg_timeout: false, max_timeout: 600, voice: null, checked: false, builtIn: null };

function voiceOf(value: unknown): Voice | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const text = (x: unknown) => (typeof x === "string" ? x : "");
  const voice = {
    announce: text(v.announce),
    heartbeat: Array.isArray(v.heartbeat) ? v.heartbeat.filter((line): line is string => typeof line === "string" && line !== "") : [],
    complete: text(v.complete),
    fail: text(v.fail),
  };
  return voice.announce || voice.heartbeat.length || voice.complete || voice.fail ? voice : null;
}

function extrasOf(files: CatalogFile[]): Map<string, Extra> {
  const extras = new Map<string, Extra>();
  for (const file of files) {
    for (const tool of file.tools) {
      const b = tool.behaviour ?? {};
      extras.set(tool.name, {
        interactive: b.interactive === true,
        arg_timeout: b.arg_timeout === true,
        max_timeout: typeof b.max_timeout === "number" ? b.max_timeout : 600,
        voice: voiceOf(b.voice),
        ...(Array.isArray(b.per_call) ? { per_call: true } : {}),
        checked: b.checked === true,
        builtIn: providerToolOf(b.built_in),
      });
    }
  }
  return extras;
}

/**
 * Every source as it is now (the agent pages' own list), with the tree's per-operation extras; the studio's agents
 * too when `agents` gives the database to read them from (an agent that asks specialists).
 */
export async function readSources(tree: string, mcp?: McpListing, agents?: Db): Promise<{ sources: Source[]; extras: Map<string, Extra>; treeError: string | null }> {
  const listed = await listSources(tree, mcp);
  const { sources, files, treeError } = agents ? await withSpecialists(agents, listed) : listed;
  return { sources, extras: extrasOf(files), treeError };
}

/** The MCP servers a declaration's entries name, by id: the only ones a run reads. */
export function mcpServersOf(declaration: AgentDeclaration): string[] {
  return mcpServersIn(declaration.tools.map((tool) => tool.entry));
}

/** An MCP tool's or a specialist's bound, lowered (never raised) by the builder's limit for it (R-mcp-timeout, R-spec-timeout). */
function lowered(own: number | null, limit: number | undefined): number | null {
  return limit === undefined || own === null ? (own ?? limit ?? null) : Math.min(own, limit);
}

/**
 * A tree file held back only by its check() is resolved as if offered, so its operations are in the run and can be
 * offered on a later turn (R-check-turn); `held` keeps why, by entry, for the run's problems.
 */
function heldByCheck(sources: Source[]): { sources: Source[]; held: Map<string, string> } {
  const held = new Map<string, string>();
  const resolvable = sources.map((s) => {
    if (s.kind !== "tree" || s.offered || s.errors.length > 0 || !s.unavailable) return s;
    held.set(s.entry, s.unavailable);
    return { ...s, offered: true, unavailable: null };
  });
  return { sources: resolvable, held };
}

/** The run's catalog for this declaration against these sources. */
export function runCatalog(
  declaration: AgentDeclaration,
  listed: Source[],
  extras: Map<string, Extra>,
  treeError: string | null = null,
  /** The model's provider (a connection's, resolved by the caller); a connection that is gone offers no provider tools. */
  modelProvider: Provider | undefined = isConnectionModel(declaration.model) ? undefined : declaration.model.provider,
): RunCatalog {
  const entries = declaration.tools.map((t) => t.entry);
  const { sources, held } = heldByCheck(listed);
  const { resolved, refused, problems: viewProblems } = resolveAgent(declaration.tools, sources);
  const heldProblems: string[] = [];
  const tools: ModelTool[] = [];
  const operations: RunOperation[] = [];
  resolved.forEach((r, entry) => {
    if (!r || refused.has(entry)) return;
    const why = held.get(r.source.entry);
    if (why) heldProblems.push(`tools[${entry}] (${entries[entry]}): ${r.source.entry} offers nothing right now: ${why}; it is offered from the first turn its check() answers True.`);
    for (const op of r.operations) {
      const kind = r.source.kind;
      const { checked, builtIn, ...extra } = kind === "tree" ? (extras.get(op.name) ?? NO_EXTRA) : NO_EXTRA;
      const provider = builtIn ? providerTool(modelProvider ?? "openai-compatible", op.name, builtIn) : undefined;
      if (typeof provider === "string") {
        heldProblems.push(`tools[${entry}] (${entries[entry]}): ${provider}`);
        continue;
      }
      // The provider's own tool goes to the model as the provider defines it, not as a function (loop.ts).
      if (!(checked && why) && !provider) tools.push(modelTool(op));
      const interactive = r.source.entry === "system:ask_user";
      const mcp = r.source.mcp?.tools[op.name];
      operations.push({
        name: op.name,
        title: op.title,
        input_schema: op.input_schema,
        entry,
        source: r.source.entry,
        kind,
        risk: op.risk,
        read_only: op.read_only,
        destructive: op.destructive,
        concurrent: op.concurrent,
        timeout: mcp || kind === "agent" ? lowered(op.timeout, declaration.tools[entry]!.timeouts?.[mcp?.operation ?? op.name]) : op.timeout,
        replay: op.replay,
        ...(kind === "tree" ? extra : { ...extra, interactive }),
        ...(mcp ? { mcp: { server: r.source.entry, tool: mcp.tool, operation: mcp.operation, nullMeansOmitted: mcp.nullMeansOmitted } } : {}),
        ...(checked ? { gate: { description: op.description } } : {}),
        ...(provider ? { provider } : {}),
      });
    }
  });
  const offered = new Set(operations.map((op) => op.name));
  const withheld = [...new Set(sources.flatMap((s) => s.operations.map((op) => op.name)))].filter((name) => !offered.has(name));
  const problems = [...viewProblems.map((p) => `tools[${p.index}] (${entries[p.index]}): ${p.message}`), ...heldProblems];
  if (treeError) problems.unshift(treeError);
  return { tools, operations, withheld, problems };
}
