import { describe, expect, it } from "vitest";
import type { CatalogFile } from "@/server/host/protocol";
import { applyPreview, doesNotParse, emptyPreview } from "./preview-state";

function entry(over: Partial<CatalogFile>): CatalogFile {
  return {
    path: "notes.py",
    kind: "functions",
    title: null,
    description: null,
    offered: true,
    tools: [],
    settings_schema: null,
    errors: [],
    ...over,
  };
}

const good = entry({
  tools: [
    {
      name: "notes__write",
      title: "Write",
      description: "Write one note.",
      input_schema: { type: "object", properties: {}, required: [] },
      scope: "call",
      risk: "read",
      read_only: true,
      destructive: false,
      timeout: null,
      replay: "manual",
    },
  ],
});
const broken = entry({ offered: false, errors: [{ line: 3, message: "SyntaxError: invalid syntax" }] });

describe("the live preview's state", () => {
  it("keeps the last good preview, marked stale, while the buffer does not parse", () => {
    const state = applyPreview(applyPreview(emptyPreview, good), broken);
    expect(state.shown).toBe(good);
    expect(state.stale).toBe(true);
    expect(state.problems).toEqual(broken.errors);
  });

  it("shows errors against a file that parses, and is no longer stale", () => {
    const withError = entry({ offered: false, errors: [{ line: 8, message: "`x` in f() has no type hint" }] });
    const state = applyPreview(applyPreview(applyPreview(emptyPreview, good), broken), withError);
    expect(state).toEqual({ shown: withError, stale: false, problems: withError.errors });
  });

  it("shows a first answer that does not parse, since there is nothing older to keep", () => {
    const state = applyPreview(emptyPreview, broken);
    expect(state).toEqual({ shown: broken, stale: false, problems: broken.errors });
  });

  it("tells a parse error from other errors", () => {
    expect(doesNotParse(broken)).toBe(true);
    expect(doesNotParse(entry({ errors: [{ line: 2, message: "IndentationError: unexpected indent" }] }))).toBe(true);
    expect(doesNotParse(entry({ errors: [{ line: 2, message: "NameError: name 'x' is not defined" }] }))).toBe(false);
  });
});
