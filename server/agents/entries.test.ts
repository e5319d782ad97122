import { describe, expect, it } from "vitest";
import { formatEntry, parseEntry, resolveEntry } from "./entries";
import { fromTree } from "@/server/catalog/sources";
import { sampleSources, treeFile } from "@/server/catalog/testing/sources";

const sources = sampleSources();

function problem(text: string): string {
  const r = resolveEntry(text, sources);
  if (r.ok) throw new Error(`${text} resolved`);
  return r.problems.join(" ");
}

describe("the three shapes an entry takes (R-loop-entries)", () => {
  it("reads system:<name> as a built-in", () => {
    expect(parseEntry("system:filesystem")).toEqual({ ok: true, entry: { kind: "system", source: "system:filesystem", operations: null } });
  });

  it("reads tools/<file>.py as a file of the tree", () => {
    expect(parseEntry("tools/notes.py")).toEqual({ ok: true, entry: { kind: "tree", source: "tools/notes.py", operations: null } });
  });

  it("reads a UUID as an MCP server, and refuses one that no registered server has (R-mcp-names)", () => {
    const parsed = parseEntry("019E4F9A-A679-79B4-A21C-7FF9C60B9181");
    expect(parsed).toMatchObject({ ok: true, entry: { kind: "mcp", source: "019e4f9a-a679-79b4-a21c-7ff9c60b9181" } });
    expect(problem("019e4f9a-a679-79b4-a21c-7ff9c60b9181")).toMatch(/^There is no MCP server 019e4f9a-a679-79b4-a21c-7ff9c60b9181; .*No MCP server is registered/);
  });

  it("says what an entry looks like when it is none of the three", () => {
    expect(problem("filesystem")).toMatch(/system:<name>.*tools\/<file>\.py/);
    expect(problem("filesystem")).toMatch(/Did you mean system:filesystem/);
  });
});

describe("a tree reference is inside tools/, flat, ending in .py, with no absolute path and no ..", () => {
  it.each([
    ["tools/../secrets.py", /climbs out with \.\./],
    ["tools/sub/../notes.py", /climbs out/],
    ["/etc/tools/notes.py", /absolute path/],
    ["C:/tools/notes.py", /absolute path/],
    ["tools\\notes.py", /forward slashes/],
    ["tools/sub/deep.py", /subfolder, which is never scanned/],
    ["tools/notes.txt", /must end in \.py/],
    ["tools/my-tool.py", /not a Python module name/],
    ["tools/_helpers.py", /helper .* never a source of tools/],
    ["tools/./notes.py", /empty or \. segment/],
    ["lib/notes.py", /not an entry/],
  ])("refuses %s", (text, why) => {
    const parsed = parseEntry(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(why);
  });

  it("tells a bare file name to add its folder", () => {
    expect(problem("notes.py")).toMatch(/tools\/notes\.py/);
  });
});

describe("narrowing with #a,b", () => {
  it("gives only the named operations, in the source's order, each once", () => {
    const r = resolveEntry("system:filesystem#list_directory, read_file,list_directory", sources);
    expect(r.ok && r.operations.map((op) => op.name)).toEqual(["read_file", "list_directory"]);
    expect(r.ok && r.canonical).toBe("system:filesystem#read_file,list_directory");
  });

  it("keeps a narrowing that names every operation, so a source that gains one later does not widen the agent", () => {
    const r = resolveEntry("tools/notes.py#notes__read,notes__write", sources);
    expect(r.ok && r.canonical).toBe("tools/notes.py#notes__write,notes__read");
  });

  it("gives every operation without a narrowing", () => {
    const r = resolveEntry("system:planning", sources);
    expect(r.ok && r.operations.map((op) => op.name)).toEqual(["write_todos", "read_todos"]);
  });

  it("refuses an empty narrowing and says how to give every operation", () => {
    expect(problem("system:web#")).toMatch(/names no operation after the #; write system:web to give every operation/);
  });

  it("refuses empty names between commas and names that are not operation names", () => {
    expect(problem("system:web#fetch_url,,x")).toMatch(/empty name between commas/);
    expect(problem("system:web#fetch.url")).toMatch(/cannot be an operation's name/);
  });

  it("formats back to the text it was parsed from", () => {
    expect(formatEntry({ source: "system:web", operations: null })).toBe("system:web");
    expect(formatEntry({ source: "system:web", operations: ["fetch_url"] })).toBe("system:web#fetch_url");
  });
});

describe("unknown sources and operations are refused with the closest names", () => {
  it("suggests the built-in a misspelt one meant", () => {
    expect(problem("system:filesytem")).toBe("There is no built-in source system:filesytem. Did you mean system:filesystem?");
  });

  it("suggests the tree file a misspelt one meant", () => {
    expect(problem("tools/note.py")).toMatch(/There is no file tools\/note\.py in the tree\. Did you mean tools\/notes\.py\?/);
  });

  it("suggests up to three operations for an unknown one", () => {
    expect(problem("system:filesystem#read")).toMatch(/has no operation read\. Did you mean read_file\?/);
    expect(problem("system:memory#memory_gte")).toMatch(/Did you mean memory_get/);
    expect(problem("tools/notes.py#write")).toMatch(/Did you mean notes__write\?/);
  });

  it("lists the operations when nothing is close", () => {
    expect(problem("system:web#zzzzzzzz")).toMatch(/Its operations are fetch_url\./);
  });

  it("names each unknown operation of one entry", () => {
    const r = resolveEntry("system:filesystem#reed_file,wrte_file", sources);
    expect(!r.ok && r.problems).toHaveLength(2);
  });

  it("refuses a file with errors, quoting its first error", () => {
    expect(problem("tools/broken.py")).toBe("tools/broken.py has errors, so it offers nothing: line 3: bad annotation; fix the file in the editor first.");
  });

  it("R-check-turn: keeps a file its check() holds back now, with its operations, for a run to offer once check() answers True", () => {
    const reason = "check() answered False, so gated is not offered until check() answers True (it is asked at most every 30 s)";
    const held = fromTree([treeFile("gated.py", [{ name: "gated" }], { kind: "module", offered: false, unavailable: reason })]);
    const r = resolveEntry("tools/gated.py", held);
    expect(r.ok && r.operations.map((op) => op.name)).toEqual(["gated"]);
  });

  it("refuses a file that offers nothing for another reason with the host's reason, not as one with errors (R-module-check)", () => {
    const reason = "its module lists no tool";
    const held = fromTree([treeFile("empty.py", [], { kind: "module", offered: false, unavailable: reason })]);
    const r = resolveEntry("tools/empty.py", held);
    expect(!r.ok && r.problems).toEqual([`tools/empty.py offers nothing right now: ${reason}.`]);
  });
});
