import { describe, expect, it } from "vitest";
import { sampleSources } from "@/server/catalog/testing/sources";
import { searchSources, stem } from "./search";

const sources = sampleSources();
const operations = (query: string) => searchSources(sources, query).flatMap((hit) => hit.operations.map((op) => op.name));

describe("finding by need in the capability vocabulary (R-sys-capabilities)", () => {
  it("file.write finds the operations that declare it, from any source", () => {
    expect(operations("file.write").sort()).toEqual(["edit_file", "notes__write", "write_file"]);
  });

  it("a need ignores words a description happens to share", () => {
    // read_file's description says "file", and it does not write.
    expect(operations("file.write")).not.toContain("read_file");
  });

  it("a namespace finds every tag under it", () => {
    expect(operations("memory.")).toEqual(expect.arrayContaining(["memory_get", "memory_set", "memory_list", "memory_delete"]));
    expect(operations("shell.exec")).toEqual(["run_bash"]);
  });

  it("words that name a capability find it: read files", () => {
    expect(operations("read files")[0]).toBe("read_file");
  });

  it("a declared need ranks above words alone", () => {
    const hits = searchSources(sources, "ticket.write open");
    expect(hits[0]!.entry).toBe("tools/tickets.py");
    expect(hits[0]!.operations[0]!.reasons[0]).toBe("declares ticket.write");
  });
});

describe("finding by words", () => {
  it("matches an operation's name", () => {
    expect(operations("fetch")[0]).toBe("fetch_url");
  });

  it("ranks a match in the name above one in a description", () => {
    const ranked = operations("grep");
    expect(ranked[0]).toBe("grep");
  });

  it("needs every word to match somewhere", () => {
    expect(operations("fetch zebra")).toEqual([]);
  });

  it("folds plurals: todos finds the planning operations", () => {
    expect(operations("todos")).toEqual(expect.arrayContaining(["write_todos", "read_todos"]));
    expect(stem("files")).toBe("file");
  });

  it("matches the source's title for each of its operations", () => {
    expect(searchSources(sources, "tickets")[0]!.entry).toBe("tools/tickets.py");
  });

  it("lists sources that cannot be added after those that can", () => {
    const hits = searchSources(sources, "go");
    expect(hits.at(-1)).toMatchObject({ entry: "tools/broken.py", offered: false });
  });

  it("finds nothing for an empty query", () => {
    expect(searchSources(sources, "  ")).toEqual([]);
  });
});
