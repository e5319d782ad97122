// A run as the runs API reads it, from its events (R-api-runs-read): each call's state through approval, question,
// start and result, the decision in the API's words, a cut result told as cut without where the whole is kept, and
// a run that ended waiting on nothing, whatever it had asked.
import { describe, expect, it } from "vitest";
import type { RunEvent, RunSummary } from "@/server/runtime";
import { viewOf } from "./runs-view";

const RUN: RunSummary = {
  id: "run-1",
  agentId: "agent-1",
  agentName: "scribe",
  agentVersion: 2,
  startedBy: "key:k1",
  startedByName: "API key ci",
  via: "api",
  viaKeyId: "k1",
  viaKeyName: "ci",
  parentRunId: null,
  parentCallId: null,
  treeVersion: null,
  status: "waiting",
  error: null,
  tokensIn: 10,
  tokensOut: 4,
  price: null,
  cost: null,
  startedAt: new Date("2026-01-31T09:30:00Z"),
  endedAt: null,
};

let n = 0;
const event = (type: RunEvent["type"], data: Record<string, unknown>): RunEvent => ({ id: String(++n), runId: "run-1", type, data, at: "2026-01-31T09:30:01.000Z" });
const by = { id: "key:k1", name: "API key ci" };
const call = (callId: string, name = "notes__write") => event("tool_call", { callId, name, operation: name, title: "Write", repaired: false, args: { subject: callId }, risk: "write", concurrent: false });
const result = (callId: string, text: string, truncated: string | null = null) =>
  event("tool_result", { callId, operation: "notes__write", outcome: "ok", text, images: [], truncated, durationMs: 5, attempts: 1, deduped: false });

describe("a run's calls", () => {
  it("follows each call from asked to finished, with the decision in the API's words and who made it", () => {
    const events = [
      event("message", { role: "user", text: "Go.", by }),
      event("message", { role: "assistant", text: "", calls: [{ callId: "a", name: "notes__write", input: "{}" }, { callId: "b", name: "ask_user", input: "{}" }], usage: { input: 1, output: 1 }, modelMs: 3 }),
      call("a"),
      event("approval_requested", { callId: "a", operation: "notes__write", title: "Write", args: { subject: "a" }, reason: "Needs approval.", grantable: false }),
      call("b", "ask_user"),
      event("question_asked", { callId: "b", question: "Which?", choices: ["x", "y"] }),
    ];
    const asked = viewOf(RUN, events);
    expect(asked.calls.map((c) => [c.callId, c.state])).toEqual([["a", "waiting_for_approval"], ["b", "waiting_for_answer"]]);
    expect(asked.waiting.approvals).toEqual([
      { callId: "a", kind: "call", parent: null, operation: "notes__write", title: "Write", args: { subject: "a" }, reason: "Needs approval.", grantable: false },
    ]);
    expect(asked.waiting.questions).toEqual([{ callId: "b", kind: "call", parent: null, question: "Which?", choices: ["x", "y"] }]);
    expect(asked.messages.map((m) => [m.role, m.callIds])).toEqual([["user", []], ["assistant", ["a", "b"]]]);

    const decided = viewOf(RUN, [
      ...events,
      event("approval_decided", { callId: "a", decision: "always", by }),
      event("tool_started", { callId: "a", operation: "notes__write", attempt: 1, timeoutS: 25 }),
    ]);
    expect(decided.calls[0]).toMatchObject({ state: "running", decision: { decision: "approve_always_in_run", by }, result: null });
    expect(decided.waiting.approvals).toEqual([]);
    expect(decided.lastEventId).toBe(String(n));

    const done = viewOf({ ...RUN, status: "done" }, [...events, result("a", "wrote a", "/data/cut/abc.txt")]);
    expect(done.calls[0]).toMatchObject({ state: "finished", result: { outcome: "ok", text: "wrote a", truncated: true } });
    expect(JSON.stringify(done)).not.toContain("/data/cut");
  });

  it("R-tool-io-cards: lists a tool's own requests with their kind under its call, and drops them when the call ends unanswered", () => {
    const events = [
      call("t", "desk__publish"),
      event("tool_started", { callId: "t", operation: "desk__publish", attempt: 1, timeoutS: 25 }),
      event("approval_requested", {
        callId: "t/io-1",
        parent: "t",
        operation: "desk__publish",
        title: "Write a file",
        args: { path: "a.md", summary: "" },
        reason: "Publish asks to write a.md.",
        grantable: true,
        io: { kind: "write", path: "a.md", summary: "" },
      }),
      event("question_asked", { callId: "t/io-2", parent: "t", question: "Which?", choices: ["x"], io: { kind: "ask" } }),
    ];
    const asked = viewOf(RUN, events);
    expect(asked.waiting.approvals).toEqual([expect.objectContaining({ callId: "t/io-1", kind: "write", parent: "t", args: { path: "a.md", summary: "" } })]);
    expect(asked.waiting.questions).toEqual([{ callId: "t/io-2", kind: "ask", parent: "t", question: "Which?", choices: ["x"] }]);
    // The tool's requests are not calls of their own: the call runs while they wait.
    expect(asked.calls.map((c) => [c.callId, c.state])).toEqual([["t", "running"]]);
    const ended = viewOf(RUN, [...events, event("approval_decided", { callId: "t/io-1", decision: "always", by }), result("t", "stopped")]);
    expect(ended.waiting).toEqual({ approvals: [], questions: [], recoveries: [] });
    // What the tool asked stays on its call, decided or not, as its card does in the trace.
    expect(ended.calls[0]!.requests).toEqual([
      { callId: "t/io-1", kind: "write", args: { path: "a.md", summary: "" }, decision: { decision: "approve_always_in_run", by, note: null }, answer: null },
      { callId: "t/io-2", kind: "ask", args: { question: "Which?", choices: ["x"] }, decision: null, answer: null },
    ]);
  });

  it("waits on nothing once the run has ended, though a question was never answered", () => {
    const view = viewOf({ ...RUN, status: "cancelled" }, [call("q", "ask_user"), event("question_asked", { callId: "q", question: "Which?", choices: [] })]);
    expect(view.waiting).toEqual({ approvals: [], questions: [], recoveries: [] });
    expect(view.status).toBe("cancelled");
    expect(view.via).toEqual({ kind: "api", keyName: "ci" });
    expect(view.startedBy).toEqual({ id: "key:k1", name: "API key ci" });
  });
});
