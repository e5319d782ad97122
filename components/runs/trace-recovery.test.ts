import { describe, expect, it } from "vitest";
import { foldAll, waitingFor, type TraceEvent } from "./trace";

let n = 0;
const event = (type: string, data: Record<string, unknown>): TraceEvent => ({ id: String(++n), type, data, at: "2026-02-01T10:00:00.000Z" });
const ANN = { id: "u1", name: "Ann" };
const asked = [
  event("tool_call", { callId: "c1", name: "ledger__append", operation: "ledger__append", title: "Append", repaired: false, args: { line: "x" }, risk: "write", concurrent: false }),
  event("tool_started", { callId: "c1", operation: "ledger__append", attempt: 1, timeoutS: 25 }),
  event("recovery_requested", { callId: "c1", operation: "ledger__append", title: "Append", args: { line: "x" }, why: "restarted", round: 1 }),
];

describe("a call that may have run, in the trace", () => {
  it("R-journal-manual: the card waits for the person, saying why, and the run waits on that call's word", () => {
    const trace = foldAll(asked);
    expect(trace.calls.c1).toMatchObject({ state: "recovery", recovery: { why: "restarted", action: null, by: null } });
    expect(waitingFor(trace)).toBe("recovery");
  });

  it("R-journal-manual: the person's word shows on the card, and the result closes it", () => {
    const decided = foldAll([...asked, event("recovery_decided", { callId: "c1", action: "done", text: "It ran.", by: ANN, round: 1 })]);
    expect(decided.calls.c1).toMatchObject({ state: "pending", recovery: { action: "done", text: "It ran.", by: ANN } });
    expect(waitingFor(decided)).toBeNull();
    const again = foldAll([...asked, event("recovery_decided", { callId: "c1", action: "again", by: ANN, round: 1 })]);
    expect(again.calls.c1!.state).toBe("running");
  });
});
