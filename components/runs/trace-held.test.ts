import { describe, expect, it } from "vitest";
import { foldAll, type TraceEvent } from "./trace";

let n = 0;
const event = (type: string, data: Record<string, unknown>): TraceEvent => ({ id: String(++n), type, data, at: "2026-02-01T10:00:00.000Z" });
const reply = (text: string, held?: { name: string; why: string }[]) =>
  event("message", { role: "assistant", text, calls: [], usage: { input: 1, output: 1 }, modelMs: 1, ...(held ? { held } : {}) });
const down = [{ name: "gated", why: "check() answered False" }];

describe("the tools a check() holds back, turn by turn, in the trace", () => {
  it("R-check-turn: a line when the held tools change, none while they stay the same", () => {
    const trace = foldAll([reply("one", []), reply("two", down), reply("three", down), reply("four", []), reply("five")]);
    const notices = trace.items.filter((item) => item.kind === "notice").map((item) => (item.kind === "notice" ? item.text : ""));
    expect(notices).toEqual([
      "Not offered on this turn, as its check() says: gated (check() answered False).",
      "Every tool a check() gates is offered again from this turn.",
    ]);
  });
});
