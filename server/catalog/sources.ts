// Every source a builder may add to an agent, in one shape whatever it comes from: the built-ins (server/system),
// the files of the tree (through the tool host's catalog) and the MCP servers an admin registered (mcp.ts).
// Edit when a new kind of source arrives: it adds one list to listSources and nothing else changes.
import fs from "node:fs";
import { hostFor, type CatalogFile, type CatalogTool } from "@/server/host";
import { SYSTEM_SOURCES, type SystemSource } from "@/server/system";
import { isCapability } from "@/server/operations/capabilities";
import { highestRisk, isReplay, isRisk, type Operation } from "@/server/operations/operation";
import { mcpSources, type McpListing } from "./mcp";
import type { Source } from "./source";

export type { McpSourceInfo, McpTool, Source, SourceError, SourceKind } from "./source";

export type SourceList = {
  sources: Source[];
  /** Why the tree's files are missing from the list (the tool host could not read it), or null. */
  treeError: string | null;
  /** The tree's catalog as the host answered it, with each operation's full behaviour (what a run reads). */
  files: CatalogFile[];
};

function summarise(operations: Operation[]): Pick<Source, "risk" | "capabilities"> {
  return {
    risk: highestRisk(operations.map((op) => op.risk)),
    capabilities: [...new Set(operations.flatMap((op) => op.capabilities))].sort(),
  };
}

export function fromSystem(source: SystemSource): Source {
  return {
    entry: `system:${source.name}`,
    kind: "system",
    title: source.title,
    description: source.description,
    ...summarise(source.operations),
    operations: source.operations,
    settings_schema: source.settings_schema,
    offered: true,
    errors: [],
    unavailable: null,
    warnings: [],
  };
}

/** "quick_notes.py" → "Quick notes": what a file without a TITLE is called in the builder. */
function titleOf(path: string): string {
  const words = path.replace(/\.py$/, "").replace(/_+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function fromTool(tool: CatalogTool, warnings: string[]): Operation {
  const behaviour = tool.behaviour ?? {};
  const declared = Array.isArray(behaviour.capabilities) ? behaviour.capabilities.filter((c): c is string => typeof c === "string") : [];
  for (const tag of declared.filter((c) => !isCapability(c))) {
    warnings.push(`${tool.name} declares the capability “${tag}”, which is not in the studio's vocabulary, so no search finds it by need.`);
  }
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    input_schema: tool.input_schema,
    risk: isRisk(tool.risk) ? tool.risk : "read",
    read_only: tool.read_only,
    destructive: tool.destructive,
    concurrent: typeof behaviour.concurrent === "boolean" ? behaviour.concurrent : tool.read_only,
    timeout: tool.timeout,
    replay: isReplay(tool.replay) ? tool.replay : "manual",
    capabilities: declared.filter(isCapability).sort(),
  };
}

/**
 * Where a Tool-class file's operations run (R-tool-class-runtime), as the host says of each; nothing for the other
 * shapes, which always run here and say nothing of it.
 */
function runtimeOf(file: CatalogFile): Pick<Source, "runtime"> {
  if (!file.tools.some((t) => typeof t.behaviour?.runtime === "string")) return {};
  const hosted = file.tools.filter((t) => t.behaviour?.runtime === "hosted").map((t) => t.name);
  return { runtime: { inProcess: file.tools.map((t) => t.name).filter((n) => !hosted.includes(n)), hosted } };
}

/**
 * The tree's files as sources; helpers never (R-file-helper), files with errors or held back by their check() listed
 * but not offered. An entry names
 * a file as tools/<file>.py whatever the tree's folder is called on disk (QUIVER_TOOLS_DIR).
 */
export function fromTree(files: CatalogFile[]): Source[] {
  return files
    .filter((file) => file.kind !== "helper")
    .map((file) => {
      const warnings: string[] = [];
      const operations = file.tools.map((tool) => fromTool(tool, warnings));
      return {
        entry: `tools/${file.path}`,
        kind: "tree" as const,
        title: file.title ?? titleOf(file.path),
        description: file.description ?? "",
        ...summarise(operations),
        operations,
        settings_schema: file.settings_schema,
        offered: file.offered && file.errors.length === 0 && !file.unavailable,
        errors: file.errors,
        unavailable: file.errors.length === 0 ? (file.unavailable ?? null) : null,
        warnings,
        ...runtimeOf(file),
      };
    });
}

export function systemSources(): Source[] {
  return SYSTEM_SOURCES.map(fromSystem);
}

/**
 * Every source, built-ins first, then the tree's files by name, then the MCP servers when `mcp` says where to find
 * them (every registered server, or only those an agent names): what the agent pages list and validate against,
 * and what a run's catalog is read from.
 */
export async function listSources(tree: string, mcp?: McpListing): Promise<SourceList> {
  let files: CatalogFile[] = [];
  let treeError: string | null = null;
  const servers = mcp ? mcpSources(mcp) : Promise.resolve([]);
  try {
    // A studio without a tree yet has no files to offer, and that is not an error.
    if (fs.existsSync(tree)) files = (await hostFor(tree).catalog(true)).files;
  } catch (err) {
    treeError = `The tool host could not read the tree, so none of its files is offered: ${(err as Error).message}`;
  }
  return { sources: [...systemSources(), ...fromTree(files), ...(await servers)], treeError, files };
}
