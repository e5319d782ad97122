// Entries: the strings an agent's `tools` list is made of (R-loop-entries).
//   system:<name>        a built-in source              tools/<file>.py   a file of the tree
//   <uuid>               an MCP server an admin registered (its row's id)
//   agent:<id>           another agent, as a specialist (specialists-entry.ts; agent:<name> is saved as the id)
// and `#a,b` after any of them narrows the entry to those operations.
//
// Canonical form: the source as written, then the named operations in the source's order, each once. A narrowing
// that names every operation stays a narrowing: it is the builder's choice of these operations, so a source that
// gains an operation later does not silently widen the agent (R-loop-entries: widening is a
// choice, made by removing the narrowing).
import type { Operation } from "@/server/operations/operation";
import type { Source } from "@/server/catalog/sources";
import { fileNameProblem } from "@/server/tree/names";
import { closest, didYouMean, suggestion } from "./closest";
import { AGENT_PREFIX, agentReference, findAgentSource, noSuchAgent } from "./specialists-entry";

export type EntryKind = "system" | "tree" | "mcp" | "agent";

export type ParsedEntry = {
  kind: EntryKind;
  /** The part before any `#`: "system:filesystem", "tools/notes.py", or an MCP server's id. */
  source: string;
  /** The operations after `#`, as written; null gives every operation. */
  operations: string[] | null;
};

export type Parsed = { ok: true; entry: ParsedEntry } | { ok: false; problem: string };

const OPERATION_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const SYSTEM = /^system:([a-z][a-z0-9_]*)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHAPES = "write system:<name> for a built-in, tools/<file>.py for a file of the tree, an MCP server's id, or agent:<id> for another agent";

/** Why `reference` cannot name a file of the tree, or null (R-loop-entries: inside tools/, flat, .py, no absolute path, no ..). */
export function treeReferenceProblem(reference: string): string | null {
  if (reference.includes("\\")) return `“${reference}” uses backslashes; write the path with forward slashes, like tools/notes.py.`;
  if (reference.startsWith("/") || /^[A-Za-z]:/.test(reference)) {
    return `“${reference}” is an absolute path; name the file by its path in the tree, like tools/notes.py.`;
  }
  const parts = reference.split("/");
  if (parts.includes("..")) return `“${reference}” climbs out with ..; a tree reference stays inside tools/, like tools/notes.py.`;
  if (parts.includes(".") || parts.includes("")) return `“${reference}” has an empty or . segment; write it as tools/<file>.py.`;
  if (parts[0] !== "tools") {
    return parts.length === 1 && reference.endsWith(".py")
      ? `“${reference}” is missing its folder; a file of the tree is named tools/${reference}.`
      : `“${reference}” is not an entry: ${SHAPES}.`;
  }
  if (parts.length === 1) return `“${reference}” names the folder; name one file in it, like tools/notes.py.`;
  if (parts.length > 2) return `“${reference}” is in a subfolder, which is never scanned; tool files sit flat in tools/.`;
  const file = parts[1]!;
  if (file.startsWith("_")) return `${reference} is a helper the other files import, never a source of tools (its name starts with _).`;
  return fileNameProblem(file);
}

/** The entry's shape alone, without asking whether its source exists. */
export function parseEntry(text: string): Parsed {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, problem: `An entry names a source: ${SHAPES}.` };
  const hash = trimmed.indexOf("#");
  const source = (hash === -1 ? trimmed : trimmed.slice(0, hash)).trim();
  let operations: string[] | null = null;
  if (hash !== -1) {
    operations = trimmed
      .slice(hash + 1)
      .split(",")
      .map((name) => name.trim());
    if (operations.every((name) => name === "")) {
      return { ok: false, problem: `${source}# names no operation after the #; write ${source} to give every operation, or name some after the #.` };
    }
    if (operations.includes("")) return { ok: false, problem: `${trimmed} has an empty name between commas; separate operation names with single commas.` };
    const bad = operations.find((name) => !OPERATION_NAME.test(name));
    if (bad !== undefined) {
      return { ok: false, problem: `“${bad}” cannot be an operation's name: names use letters, digits, _ and -, up to 128 characters.` };
    }
  }
  if (source.startsWith("system:")) {
    if (!SYSTEM.test(source)) return { ok: false, problem: `“${source}” is not a built-in's name: write system: and a lower-case name, like system:filesystem.` };
    return { ok: true, entry: { kind: "system", source, operations } };
  }
  if (source.startsWith(AGENT_PREFIX)) {
    const reference = agentReference(source);
    if (!reference) return { ok: false, problem: `“${source}” names no agent: write agent: and the agent's id or name, like agent:Researcher.` };
    return { ok: true, entry: { kind: "agent", source: reference, operations } };
  }
  if (UUID.test(source)) return { ok: true, entry: { kind: "mcp", source: source.toLowerCase(), operations } };
  const problem = treeReferenceProblem(source);
  if (problem) return { ok: false, problem };
  return { ok: true, entry: { kind: "tree", source, operations } };
}

/** The MCP servers' ids these entries name (lower case, each once), whatever else is wrong with them. */
export function mcpServersIn(entries: readonly unknown[]): string[] {
  const ids = entries.flatMap((text) => {
    const parsed = typeof text === "string" ? parseEntry(text.split("#")[0]!) : null;
    return parsed?.ok && parsed.entry.kind === "mcp" ? [parsed.entry.source] : [];
  });
  return [...new Set(ids)];
}

export function formatEntry(entry: Pick<ParsedEntry, "source" | "operations">): string {
  return entry.operations === null ? entry.source : `${entry.source}#${entry.operations.join(",")}`;
}

export type Resolved =
  | { ok: true; entry: ParsedEntry; canonical: string; source: Source; operations: Operation[] }
  | { ok: false; problems: string[] };

/** The entry against the sources that exist: its source, its operations in source order, its canonical text. */
export function resolveEntry(text: string, sources: readonly Source[]): Resolved {
  const parsed = parseEntry(text);
  const known = sources.map((s) => s.entry);
  if (!parsed.ok) {
    const head = text.trim().split("#")[0]!.trim();
    return { ok: false, problems: [parsed.problem + (head ? didYouMean(head, known) : "")] };
  }
  const entry = parsed.entry;
  const source = entry.kind === "agent" ? findAgentSource(entry.source, sources) : sources.find((s) => s.entry === entry.source);
  if (!source && entry.kind === "agent") return { ok: false, problems: [noSuchAgent(entry.source, sources)] };
  if (!source && entry.kind === "mcp") return { ok: false, problems: [noSuchServer(entry.source, sources)] };
  if (!source) {
    // Compared without the shared "system:" or "tools/", which would make every name look alike.
    const prefix = entry.kind === "system" ? "system:" : "tools/";
    const sameKind = sources.filter((s) => s.kind === entry.kind).map((s) => s.entry.slice(prefix.length));
    const near = closest(entry.source.slice(prefix.length), sameKind).map((name) => prefix + name);
    const what = entry.kind === "system" ? `There is no built-in source ${entry.source}.` : `There is no file ${entry.source} in the tree.`;
    return { ok: false, problems: [what + (suggestion(near) || didYouMean(entry.source, known))] };
  }
  // A file its check() holds back now still gives its operations: a run offers them from the first turn check()
  // answers True (R-check-turn), and the agent page says why it offers nothing meanwhile (drift).
  const heldByCheck = source.kind === "tree" && !source.offered && source.unavailable !== null && source.errors.length === 0 && source.operations.length > 0;
  if (!source.offered && source.unavailable && !heldByCheck) {
    return { ok: false, problems: [`${source.entry} offers nothing right now: ${source.unavailable}.`] };
  }
  if (!source.offered && !heldByCheck) {
    const first = source.errors[0];
    const where = first ? `: ${first.line === null ? "" : `line ${first.line}: `}${first.message}` : "";
    const more = source.errors.length > 1 ? ` (and ${source.errors.length - 1} more)` : "";
    return { ok: false, problems: [`${source.entry} has errors, so it offers nothing${where}${more}; fix the file in the editor first.`] };
  }
  const names = source.operations.map((op) => op.name);
  // An agent named by its name is kept by its id, which a rename does not change.
  const head = source.entry;
  if (entry.operations === null) {
    return { ok: true, entry: { ...entry, source: head }, canonical: head, source, operations: source.operations };
  }
  const unknown = entry.operations.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    const what = source.kind === "mcp" ? `The MCP server ${source.title} (${source.entry})` : source.entry;
    return {
      ok: false,
      problems: [...new Set(unknown)].map((name) => {
        const held = source.mcp?.unoffered.find((u) => u.tool === name);
        if (held) return `${what} lists ${name}, but it is not offered: ${held.problem}`;
        return `${what} has no ${source.kind === "mcp" ? "tool" : "operation"} ${name}.${didYouMean(name, names) || ` Its ${source.kind === "mcp" ? "tools" : "operations"} are ${names.join(", ")}.`}`;
      }),
    };
  }
  const wanted = new Set(entry.operations);
  const operations = source.operations.filter((op) => wanted.has(op.name));
  const canonical = formatEntry({ source: head, operations: operations.map((op) => op.name) });
  return { ok: true, entry: { ...entry, source: head, operations: operations.map((op) => op.name) }, canonical, source, operations };
}

/** An id no registered server has, with the registered servers whose ids or names come closest. */
function noSuchServer(id: string, sources: readonly Source[]): string {
  const servers = sources.filter((s) => s.kind === "mcp");
  const near = closest(id, servers.map((s) => s.entry)).map((uuid) => `${servers.find((s) => s.entry === uuid)!.title} (${uuid})`);
  const listed = near.length > 0 ? near : servers.slice(0, 3).map((s) => `${s.title} (${s.entry})`);
  const hint = listed.length > 0 ? ` The closest registered ${listed.length === 1 ? "one is" : "ones are"} ${listed.join(", ")}.` : " No MCP server is registered; an admin adds them in Settings → MCP servers.";
  return `There is no MCP server ${id}; it may have been deleted, or the id is mistyped.${hint}`;
}
