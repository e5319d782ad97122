// The studio's side of ctx.io without a tool host: which paths a run holds as allowed "always", read from its events;
// one path however it is written; and a run where nobody can answer telling the tool no without a card.
import { describe, expect, it } from "vitest";
import { alwaysPaths, answerIoRequest, samePath } from "./io-requests";
import { waitOf } from "./queries";
import type { PreparedCall, Run } from "./run";

const ANN = { id: "u1", name: "Ann" };
const asked = (callId: string, p: string) => ({ type: "approval_requested" as const, data: { callId, io: { kind: "write", path: p, summary: "" } } });
const decided = (callId: string, decision: string) => ({ type: "approval_decided" as const, data: { callId, decision, by: ANN } });

describe("R-tool-io-write-always", () => {
  it("R-tool-io-write-always: a path decided “always” is held; one decided once, or denied, is not", () => {
    const paths = alwaysPaths([
      asked("c1/io-1", "out/a.md"),
      decided("c1/io-1", "always"),
      asked("c2/io-1", "out/b.md"),
      decided("c2/io-1", "once"),
      asked("c3/io-1", "out/c.md"),
      decided("c3/io-1", "deny"),
      // A call's own approval "always" grants an operation, never a path.
      { type: "approval_requested", data: { callId: "c4", operation: "desk__x" } },
      decided("c4", "always"),
    ]);
    expect([...paths]).toEqual(["out/a.md"]);
  });

  it("R-tool-io-write-always: one path however it is written", () => {
    expect(samePath("out/./a.md")).toBe("out/a.md");
    expect(samePath("out//a.md ")).toBe("out/a.md");
    expect(samePath("out/x/../a.md")).toBe("out/a.md");
    expect(samePath("out/")).toBe("out");
    expect(samePath("/")).toBe("/");
    expect(samePath("out/b.md")).not.toBe(samePath("out/a.md"));
  });
});

describe("R-tool-io-nobody", () => {
  const parent = { callId: "c1", called: "desk__publish", name: "desk__publish", op: null, args: {}, early: null } as PreparedCall;

  function runWhereNobodyCanAnswer(): { run: Run; emitted: { type: string; data: unknown }[] } {
    const emitted: { type: string; data: unknown }[] = [];
    const run = {
      id: "r1",
      callIds: new Set<string>(),
      deps: { settings: { canAsk: false }, log: { stored: async () => [] } },
      emit: async (type: string, data: unknown) => void emitted.push({ type, data }),
      wait: () => {
        throw new Error("nobody can answer: no wait may open");
      },
    } as unknown as Run;
    return { run, emitted };
  }

  it("R-tool-io-nobody: where nobody can answer, each kind answers the safe way at once, with no card", async () => {
    const { run, emitted } = runWhereNobodyCanAnswer();
    expect(await answerIoRequest(run, parent, { kind: "write", path: "a.md", summary: "" })).toEqual({ decision: "deny" });
    expect(await answerIoRequest(run, parent, { kind: "shell", command: "make", reason: "" })).toEqual({ approved: false });
    expect(await answerIoRequest(run, parent, { kind: "plan", plan: "1. go" })).toEqual({ approved: false, note: "" });
    expect(await answerIoRequest(run, parent, { kind: "ask", question: "Go?", options: [] })).toEqual({ answer: null });
    expect(emitted.map((e) => e.type)).toEqual(["progress", "progress", "progress", "progress"]);
  });
});

describe("R-tool-io-nobody in the list of runs", () => {
  it("R-tool-io-nobody: a tool's request left open when its call ended is no longer what the run waits on", () => {
    const events = [
      { type: "approval_requested", callId: "t/io-1" },
      { type: "tool_result", callId: "t" },
      { type: "question_asked", callId: "q" },
    ];
    expect(waitOf(events)).toBe("question");
    expect(waitOf(events.slice(0, 1))).toBe("approval");
  });
});
