// What a source is, whatever it comes from (a built-in, a tree file, an MCP server): the shape the agent pages list,
// validate against and a run's catalog is read from. Types only, so every kind of source can say it without a cycle.
import type { JsonSchema, Operation, Risk } from "@/server/operations/operation";

/** What the studio needs to call one offered MCP tool, by the operation's name. */
export type McpTool = {
  /** The server's own name for the tool, as tools/call takes it. */
  tool: string;
  /** The operation's name in the source, before any renaming in an agent: what `#a,b` and permissions name. */
  operation: string;
  pin: string;
  nullMeansOmitted: string[];
  /** What the server says of it now, as it sent it: what a pin stands for (R-mcp-pin). */
  said: { description: string; inputSchema: JsonSchema };
};

export type McpSourceInfo = {
  server: string;
  /** "stdio" or "http" as registered; the transport in use shows on the server's row. */
  transport: "stdio" | "http";
  /** A short form of the server's name, put before a tool's name that clashes or breaks the pattern (R-mcp-names). */
  slug: string;
  tools: Record<string, McpTool>;
  /** Tools the server lists that cannot be offered, each with why (R-mcp-schema-cycle). */
  unoffered: Array<{ tool: string; problem: string }>;
};

/** `agent`: another agent of the studio, offered as one tool that asks it (R-spec-entry). */
export type SourceKind = "system" | "tree" | "mcp" | "agent";

export type SourceError = { line: number | null; message: string };

export type Source = {
  /** What an agent's entry names: "system:filesystem", "tools/notes.py". */
  entry: string;
  kind: SourceKind;
  title: string;
  description: string;
  /** The riskiest of its operations. */
  risk: Risk;
  /** Every tag its operations declare, sorted. */
  capabilities: string[];
  operations: Operation[];
  settings_schema: JsonSchema | null;
  /** Whether an agent may use it: a file with any error offers nothing (R-file-errors-offer-nothing), nor one whose check() says no (R-module-check). */
  offered: boolean;
  errors: SourceError[];
  /** Why a source without errors is not offered right now, in a sentence; null when it is offered or has errors. */
  unavailable: string | null;
  /** What is worth fixing but offers nothing less, e.g. a capability outside the vocabulary. */
  warnings: string[];
  /** An MCP server's: how each operation is called and pinned. */
  mcp?: McpSourceInfo;
  /**
   * A Tool-class file's: which operations run in the tool host (and so reach localhost) and which call a hosted
   * service that cannot (R-tool-class-runtime), by name.
   */
  runtime?: { inProcess: string[]; hosted: string[] };
};
