// Text the database can hold as it is (R-input-text): a NUL and half a surrogate pair are found wherever they sit, in
// a string, deep in a JSON value or one of its keys, or escaped inside JSON text, and named with where they are.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldName, json, jsonText, jsonTextProblem, text, textProblem } from "./text";

describe("textProblem", () => {
  it("passes ordinary text, whole surrogate pairs included", () => {
    expect(textProblem("")).toBeNull();
    expect(textProblem("naïve ✓ 😀 end")).toBeNull();
  });

  it("names a NUL and where it is", () => {
    expect(textProblem("ab\u0000c")).toBe("contains a NUL character (U+0000) at character 3; remove it and send the text again");
  });

  it("names a high or a low surrogate without its other half, and not a pair", () => {
    expect(textProblem("x\ud83d")).toMatch(/^contains a lone surrogate \(U\+D83D\) at character 2/);
    expect(textProblem("\ude00x")).toMatch(/^contains a lone surrogate \(U\+DE00\) at character 1/);
    expect(textProblem("\ud83d\ude00\ud83d")).toMatch(/at character 3/);
  });

  it("names whichever comes first", () => {
    expect(textProblem("\ud800\u0000")).toMatch(/lone surrogate/);
    expect(textProblem("\u0000\ud800")).toMatch(/NUL/);
  });
});

describe("jsonTextProblem", () => {
  it("finds a bad string deep in arrays and objects, with its path", () => {
    expect(jsonTextProblem({ tools: [{ settings: { root: "in\u0000box" } }] })).toEqual({ path: ["tools", 0, "settings", "root"], problem: expect.stringMatching(/^contains a NUL/) });
  });

  it("finds a bad key, naming the object that holds it", () => {
    expect(jsonTextProblem({ settings: { "a\u0000": 1 } })).toEqual({ path: ["settings"], problem: expect.stringMatching(/^has a key "a\\u0000" that contains a NUL/) });
  });

  it("walks a value nested far deeper than the call stack would allow", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonTextProblem(deep)?.path).toHaveLength(100_000);
    expect(jsonTextProblem({ n: 1, ok: [true, null, "fine"] })).toBeNull();
  });
});

describe("the zod checks", () => {
  it("text() refuses with a marked issue and keeps the string's other checks", () => {
    const issues = z.object({ name: text().max(3) }).safeParse({ name: "a\u0000bcd" }).error!.issues;
    expect(issues.map((i) => [i.code, i.path])).toEqual([["custom", ["name"]], ["too_big", ["name"]]]);
    expect(issues[0]).toMatchObject({ params: { kind: "quiver/text" } });
    expect(text().trim().min(1).parse("  ok ")).toBe("ok");
  });

  it("json() names the path inside the value", () => {
    const issues = z.object({ args: json(z.record(z.string(), z.unknown())) }).safeParse({ args: { a: { b: ["x", "\ud800"] } } }).error!.issues;
    expect(issues[0]!.path).toEqual(["args", "a", "b", 1]);
  });

  it("jsonText() looks inside the JSON for an escaped NUL, and leaves text that does not parse to the domain", () => {
    const issues = jsonText().safeParse(JSON.stringify({ tools: [{ entry: "a\u0000" }] })).error!.issues;
    expect(issues[0]).toMatchObject({ params: { within: "the declaration's tools[0].entry" } });
    expect(jsonText().safeParse("{not json").success).toBe(true);
  });
});

describe("fieldName", () => {
  it("reads as a person writes a path", () => {
    expect(fieldName(["tools", 0, "settings", "root"])).toBe("tools[0].settings.root");
    expect(fieldName(["settings", "two words"])).toBe('settings["two words"]');
    expect(fieldName([])).toBe("");
  });
});
