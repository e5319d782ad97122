import { describe, expect, it } from "vitest";
import type { Catalog } from "../host";
import { jsonObject, parseCommand, UsageError } from "./args";
import { callInput } from "./call";
import { catalogTable } from "./catalog";

describe("the command line", () => {
  it("refuses an unknown option with one sentence naming the ones it takes", () => {
    expect(() => parseCommand("catalog", ["--bogus"])).toThrow(UsageError);
    expect(() => parseCommand("catalog", ["--bogus"])).toThrow(/"--bogus" is not an option of quiver catalog.*--json/);
  });

  it("refuses an unknown command", () => {
    expect(() => parseCommand("frob", [])).toThrow(/Unknown command "frob"/);
  });

  it("takes --sandbox on every command", () => {
    for (const command of ["catalog", "call", "mcp", "deps"]) {
      expect(parseCommand(command, ["--sandbox"]).values.sandbox).toBe(true);
    }
  });

  it("collects repeated --pip-arg values, dashes included", () => {
    expect(parseCommand("deps", ["t", "--pip-arg=--no-index", "--pip-arg", "x"]).values["pip-arg"]).toEqual(["--no-index", "x"]);
  });

  it("accepts only a JSON object for --args and --settings", () => {
    expect(jsonObject('{"a": 1}', "--args")).toEqual({ a: 1 });
    expect(jsonObject(undefined, "--args")).toEqual({});
    expect(() => jsonObject("[1]", "--args")).toThrow(/--args must be a JSON object/);
    expect(() => jsonObject("{nope", "--settings")).toThrow(/--settings must be a JSON object.*is not JSON/);
  });

  it("refuses a timeout that is not a positive number before any host starts", () => {
    expect(() => callInput({ timeout: "soon" })).toThrow(/--timeout takes a number of seconds/);
    expect(callInput({ timeout: "2", args: '{"x": 1}' })).toEqual({ args: { x: 1 }, options: { settings: {}, timeoutS: 2 } });
  });
});

describe("the catalog table", () => {
  it("shows each file's kind and tools, and its errors with their lines", () => {
    const tool = { title: "t", description: "d", input_schema: {}, scope: null, risk: "read", read_only: true, destructive: false, timeout: null, replay: null };
    const catalog: Catalog = {
      files: [
        { path: "notes.py", kind: "functions", title: null, description: null, offered: true, settings_schema: null, errors: [], tools: [{ ...tool, name: "notes__read" }, { ...tool, name: "notes__write" }] },
        { path: "bad.py", kind: "functions", title: null, description: null, offered: false, settings_schema: null, errors: [{ line: 3, message: "x has no type hint" }], tools: [] },
      ],
    };
    const lines = catalogTable(catalog).split("\n");
    expect(lines[0]).toMatch(/^FILE\s+KIND\s+TOOLS$/);
    expect(lines[1]).toMatch(/^notes\.py\s+functions\s+notes__read, notes__write$/);
    expect(lines[2]).toMatch(/^bad\.py\s+functions\s+\(not offered\)$/);
    expect(lines[3]).toBe("    bad.py:3: x has no type hint");
    expect(lines.at(-1)).toBe("2 files, 2 tools offered, 1 errors");
  });
});
