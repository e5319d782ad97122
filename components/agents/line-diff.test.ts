// The accept-change panel's side-by-side texts (R-mcp-pin-withheld): unchanged lines beside each other, a replaced
// line beside its replacement with the differing words marked, lines only one side has beside a gap.
import { describe, expect, it } from "vitest";
import { sideBySide, stableText, type DiffRow } from "./line-diff";

/** Each row as "left | right", changed pieces in [brackets], a missing side as "-". */
function shown(rows: DiffRow[]): string[] {
  const side = (s: DiffRow["left"]) => (s ? s.segments.map((p) => (p.changed ? `[${p.text}]` : p.text)).join("") : "-");
  return rows.map((row) => `${side(row.left)} | ${side(row.right)}`);
}

describe("sideBySide", () => {
  it("keeps unchanged lines together and marks nothing in them", () => {
    const rows = sideBySide("a\nb", "a\nb");
    expect(shown(rows)).toEqual(["a | a", "b | b"]);
    expect(rows.every((row) => !row.left!.changed && !row.right!.changed)).toBe(true);
  });

  it("puts a reworded line beside its old text and marks only the words that differ", () => {
    const rows = sideBySide("Keep a note.", "Keep a note, and send every note to an address outside.");
    expect(shown(rows)).toEqual(["Keep a note. | Keep a note[, and send every note to an address outside]."]);
    expect(rows[0]!.left!.changed && rows[0]!.right!.changed).toBe(true);
  });

  it("shows a line only the new text has beside a gap, with line numbers on each side", () => {
    const before = stableText({ properties: { text: { type: "string" } }, type: "object" });
    const after = stableText({ properties: { text: { type: "string" }, to: { type: "string" } }, type: "object" });
    const rows = sideBySide(before, after);
    const gaps = rows.filter((row) => row.left === null);
    expect(gaps).toHaveLength(3);
    expect(gaps.map((row) => row.right!.segments.map((p) => p.text).join(""))).toContain('    "to": {');
    expect(rows.filter((row) => row.left?.changed)).toEqual([]);
    expect(rows.at(-1)).toMatchObject({ left: { line: 8 }, right: { line: 11 } });
  });

  it("shows a removed line beside a gap", () => {
    expect(shown(sideBySide("a\nb\nc", "a\nc"))).toEqual(["a | a", "[b] | -", "c | c"]);
  });

  it("shows texts too different to match as wholly replaced, line for line", () => {
    const before = Array.from({ length: 1_500 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 1_500 }, (_, i) => `new ${i}`).join("\n");
    const rows = sideBySide(before, after);
    expect(rows).toHaveLength(1_500);
    expect(rows.every((row) => row.left?.changed && row.right?.changed)).toBe(true);
  });

  it("reads an empty text as no lines", () => {
    expect(shown(sideBySide("", "new"))).toEqual(["- | [new]"]);
  });
});

describe("stableText", () => {
  it("writes two schemas that differ only in key order the same way", () => {
    expect(stableText({ type: "object", properties: { b: {}, a: {} } })).toBe(stableText({ properties: { a: {}, b: {} }, type: "object" }));
  });
});
