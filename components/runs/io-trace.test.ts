// A tool's ctx.io requests in the trace (R-tool-io-cards): each a card inside its tool's card, never an item of the
// conversation; the trace waits while one is open; one left open when the tool's call ends waits no more.
import { describe, expect, it } from "vitest";
import { foldAll, waitingFor, type TraceEvent } from "./trace";

let n = 0;
const event = (type: string, data: Record<string, unknown>): TraceEvent => ({ id: String(++n), type, data, at: "2026-02-01T10:00:00.000Z" });
const write = (callId: string, parent: string) =>
  event("approval_requested", {
    callId,
    parent,
    operation: "desk__publish",
    title: "Write a file",
    args: { path: "a.md", summary: "" },
    reason: "Publish asks to write a.md.",
    grantable: true,
    io: { kind: "write", path: "a.md", summary: "" },
  });
const started = [
  event("tool_call", { callId: "t", name: "desk__publish", operation: "desk__publish", title: "Publish", repaired: false, args: {}, risk: "write", concurrent: false }),
  event("tool_started", { callId: "t", operation: "desk__publish", attempt: 1, timeoutS: 25 }),
];
const result = (callId: string) =>
  event("tool_result", { callId, operation: "desk__publish", outcome: "ok", text: "done", images: [], truncated: null, durationMs: 3, attempts: 1, deduped: false });

describe("R-tool-io-cards: a tool's requests in the trace", () => {
  it("R-tool-io-cards: nests each request under its tool's card, waits while it is open, and keeps the decision and note", () => {
    const asked = foldAll([...started, write("t/io-1", "t"), event("question_asked", { callId: "t/io-2", parent: "t", question: "Which?", choices: ["x"], io: { kind: "ask" } })]);
    expect(asked.items.filter((item) => item.kind === "call")).toHaveLength(1);
    expect(asked.calls.t).toMatchObject({ state: "running", children: ["t/io-1", "t/io-2"] });
    expect(asked.calls["t/io-1"]).toMatchObject({ parent: "t", state: "approval", io: { kind: "write", path: "a.md" } });
    expect(asked.calls["t/io-2"]).toMatchObject({ state: "question", question: { question: "Which?", choices: ["x"], answered: false } });
    expect(waitingFor(asked)).toBe("approval");

    const decided = foldAll([event("approval_decided", { callId: "t/io-1", decision: "always", by: { id: "u", name: "Ann" }, note: "fine" })], asked);
    expect(decided.calls["t/io-1"]!.approval).toMatchObject({ decision: "always", note: "fine", by: { name: "Ann" } });
    expect(waitingFor(decided)).toBe("question");
  });

  it("R-tool-io-nobody: a request still open when its tool's call ends stops waiting", () => {
    const ended = foldAll([...started, write("t/io-1", "t"), result("t")]);
    expect(ended.calls["t/io-1"]).toMatchObject({ state: "pending", approval: { decision: null } });
    expect(waitingFor(ended)).toBeNull();
  });
});
