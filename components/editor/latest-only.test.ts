import { describe, expect, it } from "vitest";
import { LatestOnly } from "./latest-only";

describe("LatestOnly", () => {
  it("never lets an older answer overwrite a newer one", () => {
    const latest = new LatestOnly();
    const first = latest.next();
    const second = latest.next();
    expect(latest.accept(second)).toBe(true);
    expect(latest.accept(first)).toBe(false);
  });

  it("accepts answers that arrive in order", () => {
    const latest = new LatestOnly();
    const a = latest.next();
    expect(latest.accept(a)).toBe(true);
    const b = latest.next();
    expect(latest.pending).toBe(true);
    expect(latest.accept(b)).toBe(true);
    expect(latest.pending).toBe(false);
  });

  it("ignores the same answer twice", () => {
    const latest = new LatestOnly();
    const a = latest.next();
    expect(latest.accept(a)).toBe(true);
    expect(latest.accept(a)).toBe(false);
  });
});
