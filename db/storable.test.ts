// Text PostgreSQL cannot hold, kept as it came (R-args-nul): toStored leaves ordinary values alone and escapes only
// what needs it, fromStored reads every value back exactly, and the stored form has no NUL or lone surrogate.
import { describe, expect, it } from "vitest";
import { fromStored, jsonTextFault, textFault, toStored } from "./storable";

const awkward = ["a\u0000b", "\ud800", "x\udfff", "\\0 and \\u0000 written out", "\uFDD0starts with the mark", "\uFDD0", "\\", "😀\u0000😀"];

describe("toStored and fromStored", () => {
  it("read every awkward string back exactly, as values and as keys, deep inside", () => {
    for (const text of awkward) {
      const value = { [text]: [text, { inner: text }], n: 1, yes: true, none: null };
      expect(fromStored(toStored(value))).toEqual(value);
      expect(fromStored(toStored(text))).toBe(text);
    }
  });

  it("store nothing PostgreSQL refuses", () => {
    for (const text of awkward) {
      expect(jsonTextFault(toStored({ [text]: [text] }))).toBeNull();
      expect(textFault(toStored(text))).toBeNull();
    }
  });

  it("leave ordinary values as they are, the very same object", () => {
    const value = { name: "notes", list: ["✓", "😀", "back\\slash"], deep: { n: 2 } };
    expect(toStored(value)).toBe(value);
    expect(fromStored(value)).toBe(value);
  });
});

describe("textFault and jsonTextFault", () => {
  it("say what is wrong and where", () => {
    expect(textFault("ab\u0000")).toEqual({ what: "contains a NUL character (U+0000) at character 3", fix: "remove it" });
    expect(textFault("\ud83d\ude00 fine")).toBeNull();
    expect(jsonTextFault({ a: [{ b: "\udc00" }] })).toMatchObject({ path: ["a", 0, "b"], key: null, what: expect.stringMatching(/^contains a lone surrogate \(U\+DC00\) at character 1/) });
    expect(jsonTextFault({ a: { "k\u0000": 1 } })).toMatchObject({ path: ["a"], key: "k\u0000" });
  });
});
