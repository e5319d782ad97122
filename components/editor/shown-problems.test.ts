import { describe, expect, it } from "vitest";
import { ShownProblems } from "./shown-problems";

describe("ShownProblems", () => {
  it("asks to set markers only when a model's problems change, and for a new model always (R-preview-markers-same)", () => {
    const shown = new ShownProblems();
    const model = {};
    const error = { line: 3, message: "NameError: x" };
    expect(shown.changed(model, [])).toBe(true);
    expect(shown.changed(model, [])).toBe(false);
    expect(shown.changed(model, [{ ...error }])).toBe(true);
    expect(shown.changed(model, [{ ...error }])).toBe(false);
    expect(shown.changed(model, [{ ...error, line: 4 }])).toBe(true);
    expect(shown.changed(model, [])).toBe(true);
    expect(shown.changed({}, [])).toBe(true);
  });
});
