import { describe, expect, it } from "vitest";
import { foldAll, waitingFor, type TraceEvent } from "./trace";

let n = 0;
const event = (type: string, data: Record<string, unknown>): TraceEvent => ({ id: String(++n), type, data, at: "2026-02-01T10:00:00.000Z" });
const toolCall = (callId: string, name: string, parent?: string) =>
  event("tool_call", { callId, name, operation: name, title: null, repaired: false, args: {}, risk: "write", concurrent: false, ...(parent ? { parent } : {}) });

describe("a specialist's call in the asking run's trace (R-spec-approvals)", () => {
  it("links the call to the specialist's run and nests that run's calls, whose wait is the trace's wait", () => {
    const trace = foldAll([
      toolCall("c1", "ask_researcher"),
      event("tool_started", { callId: "c1", operation: "ask_researcher", attempt: 1, timeoutS: 300 }),
      event("specialist", { callId: "c1", runId: "run-child", agentId: "agent-child" }),
      toolCall("c1/k1", "desk__write", "c1"),
      event("approval_requested", { callId: "c1/k1", operation: "desk__write", title: "Write", args: {}, reason: "Needs approval." }),
    ]);
    expect(trace.items.filter((item) => item.kind === "call")).toHaveLength(1);
    expect(trace.calls.c1).toMatchObject({ specialist: { runId: "run-child", agentId: "agent-child" }, children: ["c1/k1"], state: "running" });
    expect(trace.calls["c1/k1"]).toMatchObject({ parent: "c1", state: "approval" });
    expect(waitingFor(trace)).toBe("approval");
  });
});
