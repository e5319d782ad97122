// The embedded database's statements take turns with the event loop (R-ops-pglite-turns): a callback the loop has
// ready runs between two waiting statements rather than after all of them, the statements keep their order, and
// one that fails or a transaction hands the turn on like any other.
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeTurns } from "./turns";

let plain: PGlite;
let turned: PGlite;

beforeAll(async () => {
  plain = new PGlite();
  turned = new PGlite();
  await Promise.all([plain.waitReady, turned.waitReady]);
  takeTurns(turned);
});
afterAll(async () => {
  await Promise.all([plain?.close(), turned?.close()]);
});

/** How many of `n` statements sent at once had finished when a callback the loop had ready ran. */
async function finishedBeforeTheLoopRan(client: PGlite, n: number): Promise<{ before: number; order: number[] }> {
  const order: number[] = [];
  let before = -1;
  setImmediate(() => (before = order.length));
  await Promise.all(Array.from({ length: n }, (_, i) => client.query<{ i: number }>("select $1::int as i", [i]).then((r) => order.push(r.rows[0]!.i))));
  // Where the loop had no turn until the end, the callback runs now.
  await new Promise((resolve) => setImmediate(resolve));
  return { before, order };
}

describe("statements taking turns (R-ops-pglite-turns)", () => {
  it("lets the event loop run between two waiting statements, where PGlite alone runs them all first", async () => {
    const alone = await finishedBeforeTheLoopRan(plain, 50);
    const taking = await finishedBeforeTheLoopRan(turned, 50);
    expect(alone.before).toBe(50);
    expect(taking.before).toBeLessThanOrEqual(1);
    expect(taking.order).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it("hands the turn on after a statement that fails, and after a transaction", async () => {
    const failed = turned.query("select * from no_such_table").then(
      () => "answered",
      () => "refused",
    );
    const tx = turned.transaction(async (t) => (await t.query<{ n: number }>("select 2 as n")).rows[0]!.n);
    const after = turned.exec("select 1");
    expect(await failed).toBe("refused");
    expect(await tx).toBe(2);
    expect((await after)[0]!.rows).toHaveLength(1);
  });
});
