// The built-ins whose state is the run's: the plan (write_todos and read_todos, R-sys-planning, through ctx.todos) and
// ask_user (through ctx.ask; no answer means proceed on the likeliest reading and say so).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NO_ANSWER } from "@/server/system/ask-user";
import { call, context, place, type Place } from "./context";

let p: Place;
beforeEach(() => {
  p = place("run-state");
});
afterEach(() => p.cleanup());

describe("write_todos", () => {
  it("takes the whole list each time, extra keys kept, and read_todos answers it", async () => {
    const ctx = context(p);
    const todos = [
      { content: "Read the brief", status: "completed", owner: "me" },
      { content: "Write the report", status: "in_progress" },
    ];
    expect(await call("planning", "write_todos", { todos }, ctx)).toMatchObject({ outcome: "ok", text: expect.stringContaining("2 steps, 1 completed") });
    expect(ctx.plan).toEqual(todos);
    await call("planning", "write_todos", { todos: [{ content: "Only step", status: "pending" }] }, ctx);
    expect(ctx.plan).toEqual([{ content: "Only step", status: "pending" }]);
    expect(await call("planning", "read_todos", {}, ctx)).toEqual({ outcome: "ok", text: "1. [ ] Only step (pending)" });
  });

  it("answers a one-line error and changes nothing when the list does not fit the shape", async () => {
    const ctx = context(p);
    const good = [{ content: "Keep me", status: "pending" }];
    await call("planning", "write_todos", { todos: good }, ctx);
    const bad: unknown[] = [
      "not a list",
      [{ content: "x", status: "done" }],
      [{ status: "pending" }],
      [{ content: "", status: "pending" }],
      ["a string"],
      [null],
    ];
    for (const todos of bad) {
      const result = await call("planning", "write_todos", { todos }, ctx);
      expect(result.outcome, JSON.stringify(todos)).toBe("refused");
      expect(result.text).not.toContain("\n");
      expect(result.text).toContain("nothing changed");
    }
    expect(ctx.plan).toEqual(good);
  });

  it("reads an empty plan before one is written", async () => {
    expect((await call("planning", "read_todos", {}, context(p))).text).toBe("The plan is empty.");
  });
});

describe("ask_user", () => {
  it("puts the question and its choices to the person and answers their reply", async () => {
    const ctx = context(p, { answer: "CSV" });
    expect(await call("ask_user", "ask_user", { question: "Which format?", choices: ["CSV", "JSON"] }, ctx)).toEqual({ outcome: "ok", text: "The user answered: CSV" });
    expect(ctx.questions).toEqual([{ question: "Which format?", choices: ["CSV", "JSON"] }]);
  });

  it("tells the model to proceed on the most likely reading, and say so, when nobody answers", async () => {
    const ctx = context(p, { answer: null });
    const result = await call("ask_user", "ask_user", { question: "Which format?" }, ctx);
    expect(result).toEqual({ outcome: "ok", text: NO_ANSWER });
    expect(result.text).toContain("most likely reading");
    expect(result.text).toContain("state that assumption at the start of your reply");
    expect(ctx.questions).toEqual([{ question: "Which format?", choices: [] }]);
    const unreachable = context(p, { ask: () => Promise.reject(new Error("no way to ask")) });
    expect(await call("ask_user", "ask_user", { question: "Which?" }, unreachable)).toEqual({ outcome: "ok", text: NO_ANSWER });
  });
});
