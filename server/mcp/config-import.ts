// An mcp.json as Claude Desktop, Cursor and VS Code write it, read into server configs (R-mcp-register): the
// `{"mcpServers": {...}}` object (VS Code's `{"servers": {...}}` too), stdio entries with command/args/env(/cwd),
// http entries with url, headers and a type of "http", "streamable-http" or "sse". Text that does not parse says
// the line and column where it breaks. Faults come back at mcp.json's own fields (mcpServers.github.env.TOKEN).
import type { Problem } from "./config";

/** One entry of the file, as the registry's input: checked by parseServerConfig like a form's. */
export type ImportedServer = { key: string; input: Record<string, unknown> };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: lines.at(-1)!.length + 1 };
}

/**
 * Where JSON.parse gave up, for the messages that name no position ("Unexpected token ']', … is not valid JSON"):
 * the shortest prefix that fails for another reason than ending early holds the fault as its last character.
 */
function faultOffset(text: string): number {
  const pastFault = (length: number) => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      return !/Unexpected end of JSON input/.test((error as Error).message);
    }
  };
  let low = 1;
  let high = text.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (pastFault(mid)) high = mid;
    else low = mid + 1;
  }
  return low - 1;
}

/** The parse error's sentence, with the place V8 names as a position turned into a line and a column. */
export function parseFailure(text: string, error: SyntaxError): string {
  const message = error.message;
  const position = /at position (\d+)/.exec(message);
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  const where = lineColumn
    ? { line: Number(lineColumn[1]), column: Number(lineColumn[2]) }
    : position
      ? lineAndColumn(text, Number(position[1]))
      : text.trim() === ""
        ? null
        : lineAndColumn(text, /Unexpected end/.test(message) ? text.length : faultOffset(text));
  // V8's "… in JSON at position 12 (line 1 column 13)" and `"<text>" is not valid JSON` both repeat the file.
  const why = message
    .replace(/\s*in JSON at position \d+.*$/s, "")
    .replace(/^Unexpected token '?(.)'?, .* is not valid JSON$/s, "Unexpected character $1")
    .replace(/^Unexpected end of JSON input$/, "The text ends before the JSON does")
    .trim();
  if (!where) return "The mcp.json is empty; paste the whole file, starting with {.";
  return `The mcp.json does not parse at line ${where.line}, column ${where.column}: ${why.replace(/\.$/, "")}.`;
}

/** What one mcp.json entry says, in the registry's input shape; unknown keys of other clients are passed over. */
function entryInput(key: string, entry: Record<string, unknown>, problems: Problem[]): Record<string, unknown> | null {
  const at = `mcpServers.${key}`;
  if (entry.envFile !== undefined) {
    problems.push({ path: `${at}.envFile`, message: "envFile is not read: copy its variables into env, each secret as ${NAME}." });
  }
  const type = entry.type;
  const description = typeof entry.description === "string" ? entry.description : undefined;
  const base = { name: key, ...(description !== undefined ? { description } : {}) };
  if (entry.url !== undefined || type === "http" || type === "streamable-http" || type === "sse") {
    if (type !== undefined && type !== "http" && type !== "streamable-http" && type !== "sse") {
      problems.push({ path: `${at}.type`, message: `An entry with a url has type "http", "streamable-http" or "sse", not ${JSON.stringify(type)}.` });
      return null;
    }
    return { ...base, transport: { type: "http", url: entry.url, headers: entry.headers } };
  }
  if (type !== undefined && type !== "stdio") {
    problems.push({ path: `${at}.type`, message: `The type is "stdio" for a command, or "http", "streamable-http" or "sse" for a url; not ${JSON.stringify(type)}.` });
    return null;
  }
  if (entry.command === undefined) {
    problems.push({ path: at, message: `${key} names neither a command (stdio) nor a url (http); give one of them.` });
    return null;
  }
  return { ...base, transport: { type: "stdio", command: entry.command, args: entry.args, cwd: entry.cwd, env: entry.env } };
}

/** The servers an mcp.json text names, or why it cannot be read: nothing of a file with a fault is taken. */
export function readMcpJson(text: string): { servers: ImportedServer[]; problems: Problem[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { servers: [], problems: [{ path: "", message: parseFailure(text, error as SyntaxError) }] };
  }
  const holder = isRecord(parsed) ? (parsed.mcpServers ?? parsed.servers) : undefined;
  if (!isRecord(holder)) {
    return { servers: [], problems: [{ path: "mcpServers", message: 'The file has no "mcpServers" object: paste the whole mcp.json, like {"mcpServers": {"name": {"command": "…"}}}.' }] };
  }
  const problems: Problem[] = [];
  const servers: ImportedServer[] = [];
  const entries = Object.entries(holder);
  if (entries.length === 0) problems.push({ path: "mcpServers", message: "The mcpServers object is empty; there is nothing to import." });
  for (const [key, entry] of entries) {
    if (!isRecord(entry)) {
      problems.push({ path: `mcpServers.${key}`, message: `${key} must be an object with a command or a url.` });
      continue;
    }
    const input = entryInput(key, entry, problems);
    if (input) servers.push({ key, input });
  }
  return { servers, problems };
}

/** A registry field ("transport.env.TOKEN") as the place in mcp.json it came from ("mcpServers.x.env.TOKEN"). */
export function importedPath(key: string, at: string): string {
  const base = `mcpServers.${key}`;
  if (at === "" || at === "name") return base;
  return `${base}.${at.replace(/^transport\./, "").replace(/^transport$/, "")}`.replace(/\.$/, "");
}
