import { describe, expect, it } from "vitest";
import { busyFlag } from "./busy-flag";

describe("busyFlag", () => {
  it("tells its subscribers only when busy changes, and no longer once they unsubscribe (R-preview-busy-local)", () => {
    const flag = busyFlag();
    const seen: boolean[] = [];
    const unsubscribe = flag.subscribe(() => seen.push(flag.get()));
    flag.set(true);
    flag.set(true);
    flag.set(false);
    unsubscribe();
    flag.set(true);
    expect(seen).toEqual([true, false]);
    expect(flag.get()).toBe(true);
  });
});
