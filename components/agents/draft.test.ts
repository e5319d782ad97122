import { describe, expect, it } from "vitest";
import type { Source } from "@/server/catalog/sources";
import { anchorOf, chosenOperations, fromDeclaration, joinEntry, localProblems, mergeProblems, placeOf, sameDraft, splitEntry, toDeclaration } from "./draft";

const files = {
  entry: "system:filesystem",
  title: "Files",
  operations: [
    { name: "read_file", title: "Read a file" },
    { name: "write_file", title: "Write a file" },
    { name: "list_directory", title: "List a folder" },
  ],
} as unknown as Source;

const declaration = {
  name: "triage",
  description: "",
  instructions: "Sort files.",
  model: { provider: "openai-compatible" as const, model: "qwen3", base_url: "http://127.0.0.1:11434/v1" },
  policy: { timeout_s: 25, output_cap: 20_000, dedupe: false, retry: 2, permission: "ALLOW" as const },
  tools: [{ entry: "system:filesystem#read_file,list_directory", settings: { root: "inbox" }, permissions: { read_file: "ASK" as const } }],
};

describe("the agent page's draft", () => {
  it("reads an entry as its source and the operations it names, null giving every one", () => {
    expect(splitEntry("system:filesystem#read_file, list_directory")).toEqual({ source: "system:filesystem", operations: ["read_file", "list_directory"] });
    expect(splitEntry("tools/tickets.py")).toEqual({ source: "tools/tickets.py", operations: null });
    expect(splitEntry("system:filesystem#")).toEqual({ source: "system:filesystem", operations: [] });
    expect(joinEntry("system:filesystem", ["read_file"])).toBe("system:filesystem#read_file");
    expect([...chosenOperations("system:filesystem", files)]).toEqual(["read_file", "write_file", "list_directory"]);
  });

  it("round-trips a declaration, and a number field keeps what was typed until it is a number", () => {
    const draft = fromDeclaration(declaration);
    expect(toDeclaration(draft)).toEqual(declaration);
    const typed = { ...draft, policy: { ...draft.policy, timeout_s: "9x" } };
    expect((toDeclaration(typed).policy as { timeout_s: unknown }).timeout_s).toBe("9x");
    expect(localProblems(typed)).toEqual([{ path: "policy.timeout_s", message: "Write a whole number of seconds a call may take, from 1 to 600." }]);
  });

  it("leaves the server address out for a provider that has none, and tells unsaved changes by meaning", () => {
    const draft = fromDeclaration(declaration);
    const openai = { ...draft, model: { ...draft.model, provider: "openai" as const } };
    expect(toDeclaration(openai).model).toEqual({ provider: "openai", model: "qwen3" });
    const reordered = fromDeclaration({ ...declaration, tools: [{ ...declaration.tools[0]!, settings: { root: "inbox" } }] });
    expect(sameDraft(draft, reordered)).toBe(true);
    expect(sameDraft(draft, { ...draft, name: "other" })).toBe(false);
  });

  it("refuses an entry with every operation unticked, in the builder's words", () => {
    const draft = fromDeclaration({ ...declaration, tools: [{ entry: "system:filesystem#", settings: {}, permissions: {} }] });
    expect(localProblems(draft)).toEqual([{ path: "tools[0].entry", message: "Tick at least one operation, or remove this source." }]);
  });

  it("names a problem's place as the builder reads it and links it to its field", () => {
    const entries = ["system:filesystem#read_file"];
    expect(placeOf("tools[0].settings.root", entries, [files])).toBe("Files · Settings · root");
    expect(placeOf("tools[0].permissions.read_file", entries, [files])).toBe("Files · Approval of Read a file");
    expect(placeOf("model.api_key", entries, [files])).toBe("Key");
    expect(placeOf("tools[0].entry", ["system:filesytem"], [files])).toBe("system:filesytem");
    expect(anchorOf("tools[1].settings.root")).toBe("field-tools-1-settings-root");
    expect(anchorOf("tools[1].entry")).toBe("field-tools-1");
    expect(anchorOf("policy.timeout_s")).toBe("field-policy-timeout_s");
  });

  it("prefers the browser's sentence for a field and lists each problem once", () => {
    const local = [{ path: "policy.retry", message: "Write a whole number." }];
    const server = [
      { path: "policy.retry", message: "Expected number." },
      { path: "name", message: "Give the agent a name." },
      { path: "name", message: "Give the agent a name." },
    ];
    expect(mergeProblems(local, server)).toEqual([local[0], server[1]]);
  });
});
