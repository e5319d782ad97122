// Statements of one moment made as one (R-ops-db-gathered): items given in one turn of the event loop are handed on
// together, each giver gets its own answer, a lone item is handed on alone at once, and a gathering that fails is
// made again item by item so that only the bad item's giver hears of it.
import { describe, expect, it } from "vitest";
import { Gathering, gatheringPer } from "./gathering";

describe("gathering the statements of one moment (R-ops-db-gathered)", () => {
  it("hands the items of one turn on together and answers each giver its own", async () => {
    const handed: number[][] = [];
    const doubling = new Gathering<number, number>(async (items) => {
      handed.push(items);
      return (n) => n * 2;
    });
    const answers = await Promise.all([1, 2, 3].map((n) => doubling.give(n)));
    expect(answers).toEqual([2, 4, 6]);
    expect(handed).toEqual([[1, 2, 3]]);
    expect(await doubling.give(4)).toBe(8);
    expect(handed).toEqual([[1, 2, 3], [4]]);
  });

  it("makes a failed gathering again item by item, so only the bad item fails", async () => {
    const handed: string[][] = [];
    const checking = new Gathering<string, string>(async (items) => {
      handed.push(items);
      if (items.includes("bad")) throw new Error("refused");
      return (s) => s.toUpperCase();
    });
    const outcomes = await Promise.allSettled(["a", "bad", "b"].map((s) => checking.give(s)));
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : (o.reason as Error).message))).toEqual(["A", "refused", "B"]);
    expect(handed).toEqual([["a", "bad", "b"], ["a"], ["bad"], ["b"]]);
  });

  it("keeps one gathering per key", async () => {
    const seen: string[] = [];
    const per = gatheringPer((key: { name: string }) => async (items: number[]) => {
      seen.push(`${key.name}:${items.join(",")}`);
      return (n: number) => n;
    });
    const one = { name: "one" };
    const two = { name: "two" };
    expect(per(one)).toBe(per(one));
    await Promise.all([per(one).give(1), per(two).give(2), per(one).give(3)]);
    expect(seen.sort()).toEqual(["one:1,3", "two:2"]);
  });
});
