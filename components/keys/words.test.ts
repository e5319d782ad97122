// The dialog's scope boxes: metrics is a key's only scope or none of them (R-metrics-key).
import { describe, expect, it } from "vitest";
import { scopeWords, toggledScopes } from "./words";

describe("toggledScopes", () => {
  it("R-metrics-key: ticking Read metrics leaves it alone, and ticking another scope unticks it", () => {
    expect(toggledScopes(["run", "read"], "metrics", true)).toEqual(["metrics"]);
    expect(toggledScopes(["metrics"], "decide", true)).toEqual(["decide"]);
    expect(toggledScopes(["metrics"], "metrics", false)).toEqual([]);
  });

  it("ticks and unticks the other scopes side by side, as before", () => {
    expect(toggledScopes(["run"], "read", true)).toEqual(["run", "read"]);
    expect(toggledScopes(["run", "read"], "run", false)).toEqual(["read"]);
    expect(toggledScopes(["run"], "run", true)).toEqual(["run"]);
  });

  it("names a metrics key's one right in the list's words", () => {
    expect(scopeWords(["metrics"])).toBe("read metrics");
  });
});
