// The embedded database's statements take turns with the rest of the process (R-ops-pglite-turns). PGlite runs each
// statement inside the studio's own thread, and its lock hands the next waiting statement on as soon as one ends,
// in the same round of promise callbacks: under load, hundreds ran back to back and no socket was read meanwhile
// (a model's streamed reply sat unread for a fifth of a second). Here a statement waits for its turn in one queue,
// and the next turn is given only after the event loop has looked at its sockets and timers once.
import type { PGlite } from "@electric-sql/pglite";

type Entry = "query" | "exec" | "transaction";

/** Wraps the client's query, exec and transaction in place; statements keep their order, one turn each. */
export function takeTurns(client: PGlite): void {
  const waiting: Array<() => void> = [];
  let busy = false;
  const next = () => {
    const go = waiting.shift();
    if (go) go();
    else busy = false;
  };
  const turn = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!busy) {
        busy = true;
        setImmediate(next);
      }
    });
  const target = client as unknown as Record<Entry, (...args: unknown[]) => Promise<unknown>>;
  for (const entry of ["query", "exec", "transaction"] as const) {
    const original = target[entry].bind(client);
    target[entry] = async (...args: unknown[]) => {
      await turn();
      try {
        return await original(...args);
      } finally {
        // setImmediate runs after the loop's poll for I/O: sockets are read between two statements.
        setImmediate(next);
      }
    };
  }
}
