// The schema diff says what the model would see differently, and nothing the model does not see.
import { describe, expect, it } from "vitest";
import type { CatalogFile, CatalogTool } from "@/server/host/protocol";
import { describeChange, diffSchemas, typeLabel } from "./schema-diff";

function tool(name: string, properties: Record<string, unknown>, required: string[], extra: Partial<CatalogTool> = {}): CatalogTool {
  return {
    name,
    title: name,
    description: `Does ${name}.`,
    input_schema: { type: "object", properties, required },
    scope: "call",
    risk: "read",
    read_only: true,
    destructive: false,
    timeout: null,
    replay: "manual",
    ...extra,
  };
}

function file(tools: CatalogTool[], extra: Partial<CatalogFile> = {}): CatalogFile {
  return { path: "notes.py", kind: "functions", title: null, description: null, offered: true, tools, settings_schema: null, errors: [], ...extra };
}

const subject = { type: "string", description: "Which note." };
const body = { type: "string", description: "The note itself." };

describe("diffSchemas", () => {
  it("finds nothing between two versions the model sees alike", () => {
    const before = file([tool("notes__read", { subject }, ["subject"])]);
    const after = file([tool("notes__read", { subject: { description: "Which note.", type: "string" } }, ["subject"])]);
    expect(diffSchemas(before, after)).toEqual([]);
  });

  it("ignores what the model never sees: titles, risk, timeouts, the settings model", () => {
    const before = file([tool("notes__read", { subject }, ["subject"])]);
    const after = file([tool("notes__read", { subject }, ["subject"], { title: "Read a note", risk: "write", timeout: 5 })], {
      title: "Notes",
      settings_schema: { type: "object", properties: { root: { type: "string" } } },
    });
    expect(diffSchemas(before, after)).toEqual([]);
  });

  it("names operations added and removed", () => {
    const before = file([tool("notes__write", { subject, body }, ["subject", "body"])]);
    const after = file([tool("notes__read", { subject }, ["subject"])]);
    expect(diffSchemas(before, after).map(describeChange)).toEqual(["Added operation notes__read", "Removed operation notes__write"]);
  });

  it("treats a renamed function as one operation removed and another added, since the name is what the model calls", () => {
    const changes = diffSchemas(file([tool("notes__get", {}, [])]), file([tool("notes__read", {}, [])]));
    expect(changes.map((c) => c.kind)).toEqual(["operation-added", "operation-removed"]);
  });

  it("says an operation's description changed, with both texts", () => {
    const after = tool("notes__read", { subject }, ["subject"], { description: "Read one note whole." });
    const [change] = diffSchemas(file([tool("notes__read", { subject }, ["subject"])]), file([after]));
    expect(describeChange(change!)).toBe("notes__read: description is now “Read one note whole.” (was “Does notes__read.”)");
  });

  it("says a parameter was added, with whether it is required and its type", () => {
    const tags = { type: "array", items: { type: "string" }, description: "Labels." };
    const changes = diffSchemas(
      file([tool("notes__write", { subject }, ["subject"])]),
      file([tool("notes__write", { subject, body, tags }, ["subject", "body"])]),
    );
    expect(changes.map(describeChange)).toEqual([
      "notes__write: added required parameter body (string)",
      "notes__write: added optional parameter tags (array of string)",
    ]);
  });

  it("says a parameter was removed", () => {
    const changes = diffSchemas(file([tool("notes__write", { subject, body }, ["subject", "body"])]), file([tool("notes__write", { subject }, ["subject"])]));
    expect(changes).toEqual([{ kind: "parameter-removed", operation: "notes__write", parameter: "body" }]);
  });

  it("says a parameter became optional when it gained a default, and what the default is", () => {
    const changes = diffSchemas(
      file([tool("notes__write", { subject, body }, ["subject", "body"])]),
      file([tool("notes__write", { subject, body: { ...body, default: "" } }, ["subject"])]),
    );
    expect(changes.map(describeChange)).toEqual([
      "notes__write: parameter body is now optional",
      'notes__write: parameter body now defaults to ""',
    ]);
  });

  it("says a default changed or went away", () => {
    const limit = (extra: object) => ({ type: "integer", description: "How many.", ...extra });
    const first = file([tool("notes__list", { limit: limit({ default: 10 }) }, [])]);
    expect(diffSchemas(first, file([tool("notes__list", { limit: limit({ default: 20 }) }, [])])).map(describeChange)).toEqual([
      "notes__list: parameter limit now defaults to 20 (was 10)",
    ]);
    expect(diffSchemas(first, file([tool("notes__list", { limit: limit({}) }, ["limit"])])).map(describeChange)).toEqual([
      "notes__list: parameter limit is now required",
      "notes__list: parameter limit no longer has a default",
    ]);
  });

  it("says a parameter's type changed, as a person reads types", () => {
    const changes = diffSchemas(
      file([tool("tickets__open", { priority: { type: "string" } }, [])]),
      file([tool("tickets__open", { priority: { type: "string", enum: ["low", "high"] } }, [])]),
    );
    expect(changes.map(describeChange)).toEqual(['tickets__open: parameter priority is now one of "low", "high" (was string)']);
  });

  it("tells a changed constraint apart from a changed type", () => {
    const changes = diffSchemas(
      file([tool("clock__wait", { seconds: { type: "integer" } }, [])]),
      file([tool("clock__wait", { seconds: { type: "integer", minimum: 0 } }, [])]),
    );
    expect(changes).toEqual([{ kind: "parameter-schema", operation: "clock__wait", parameter: "seconds" }]);
  });

  it("says a parameter's description changed", () => {
    const changes = diffSchemas(file([tool("notes__read", { subject }, ["subject"])]), file([tool("notes__read", { subject: { type: "string" } }, ["subject"])]));
    expect(changes.map(describeChange)).toEqual(["notes__read: parameter subject is now described as empty (was “Which note.”)"]);
  });

  it("notices a change to the input schema outside its parameters", () => {
    const open = tool("clock__now", {}, []);
    const closed = { ...open, input_schema: { ...open.input_schema, additionalProperties: false } };
    expect(diffSchemas(file([open]), file([closed]))).toEqual([{ kind: "input-schema", operation: "clock__now" }]);
  });

  it("does not count the order of the required list as a change", () => {
    const before = file([tool("notes__write", { subject, body }, ["subject", "body"])]);
    const after = file([tool("notes__write", { subject, body }, ["body", "subject"])]);
    expect(diffSchemas(before, after)).toEqual([]);
  });

  it("says when a file with errors stops offering its operations", () => {
    const before = file([tool("notes__read", { subject }, ["subject"])]);
    const after = file([tool("notes__read", { subject }, ["subject"])], { offered: false, errors: [{ line: 3, message: "x" }] });
    expect(diffSchemas(before, after).map(describeChange)).toEqual(["The file has errors: the model is offered none of its operations"]);
  });

  it("treats a missing version as a file with no operations", () => {
    expect(diffSchemas(null, file([tool("notes__read", {}, [])]))).toEqual([{ kind: "operation-added", operation: "notes__read" }]);
  });
});

describe("typeLabel", () => {
  it("reads optional, list, dict and enum schemas the way the schema table writes them", () => {
    expect(typeLabel({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("string or null");
    expect(typeLabel({ type: "array", items: { type: "integer" } })).toBe("array of integer");
    expect(typeLabel({ type: "object", additionalProperties: { type: "number" } })).toBe("object of number");
    expect(typeLabel({ type: "string", enum: ["a", "b"] })).toBe('one of "a", "b"');
    expect(typeLabel({})).toBe("any value");
  });
});
