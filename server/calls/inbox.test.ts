// The buffer-and-wake inbox both a run's event stream and Try it read through: nothing pushed is lost or
// reordered, the reader sleeps while there is nothing, and it stops on its signal or at the end.
import { describe, expect, it } from "vitest";
import { Inbox } from "./inbox";

describe("an inbox", () => {
  it("hands items over in the order pushed, including those pushed while the reader waited", async () => {
    const inbox = new Inbox<number>();
    inbox.push(1);
    const taken = [await inbox.take()];
    const waiting = inbox.take();
    inbox.push(2);
    inbox.push(3);
    taken.push(await waiting, await inbox.take());
    expect(taken).toEqual([1, 2, 3]);
  });

  it("gives what is left after the end, then null, or the error it ended with", async () => {
    const inbox = new Inbox<string>();
    inbox.push("last");
    inbox.end();
    expect([await inbox.take(), await inbox.take()]).toEqual(["last", null]);
    const failing = new Inbox<string>();
    const waiting = failing.take();
    failing.end(new Error("no secret named X"));
    await expect(waiting).rejects.toThrow("no secret named X");
  });

  it("wakes a waiting reader with null when its signal aborts", async () => {
    const controller = new AbortController();
    const inbox = new Inbox<string>(controller.signal);
    const waiting = inbox.take();
    controller.abort();
    expect(await waiting).toBeNull();
    inbox.close();
  });
});
