// How many runs one process drives at once (maxRuns, QUIVER_MAX_RUNS; R-queue-job): a process told one drives one,
// the next run waits on the queue untaken, and it is taken as soon as the first ends and leaves room.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, text } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, waitForEvent, type Studio } from "./setup";

const DESK = `"""A desk."""

from quiver import tool


@tool(risk="write")
def write(subject: str) -> str:
    """Write a note.

    Args:
        subject: The note's name.
    """
    return f"wrote {subject}"
`;

let s: Studio;
beforeAll(async () => {
  s = await studio("max-runs", { "desk.py": DESK }, { maxRuns: 1 });
});
afterAll(async () => s?.close());

describe("runs driven at once by one process", () => {
  it("R-queue-job: with room for one run, a second waits on the queue until the first ends, then is taken and driven", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/desk.py#desk__write", permissions: { desk__write: "ASK" } }] });
    s.model.reply(call("desk__write", { subject: "tea" }), text("Wrote tea."), text("Second done."));
    const { runId: first } = await s.runtime.start({ agentId: agent, message: "Write the note on tea.", user: ANN });
    const asked = await waitForEvent(s.runtime, first, "approval_requested");
    await waitForEvent(s.runtime, first, "status", (e) => e.status === "waiting");

    const { runId: second } = await s.runtime.start({ agentId: agent, message: "Say done.", user: ANN });
    // The queue is asked again every second: a few looks, and the second run is still not taken.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(s.runtime.liveRuns()).toEqual([first]);
    expect(await s.events(second)).toEqual([]);

    await s.runtime.decide(first, asked.callId, "once", ANN);
    expect((await settled(s, first)).status).toBe("done");
    await expect.poll(async () => (await s.runtime.get(second)).run.status, { timeout: 15_000, interval: 100 }).toBe("done");
    expect(dataOf(await s.events(second), "message").at(-1)).toMatchObject({ role: "assistant", text: "Second done." });
  });
});
