// The journal of a run's steps on the embedded database: one row per step key, whatever writes it twice
// (R-journal-key); each call recorded before it is dispatched and given its result when it returns
// (R-journal-started); a manual call that times out waits for the person as one in flight at a takeover does
// (R-journal-timeout). Takeovers themselves: journal-processes.test.ts, with real processes on PostgreSQL.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runSteps } from "@/db/schema";
import { idempotencyKey, journalOf, journalStart } from "@/server/runtime/journal";
import { MARKED_FAILED } from "@/server/runtime/journal-recovery";
import { call, calls, text } from "@/tests/support/loopback-model";
import { ANN, dataOf, studio, waitForEvent, type Studio } from "./setup";

const TOOLS = `"""Quick and slow."""\n\nimport time\n\n\ndef echo(text: str) -> str:\n    """Say it back.\n\n    Args:\n        text: What.\n    """\n    return text\n\n\ndef stall(seconds: float) -> str:\n    """Take a while.\n\n    Args:\n        seconds: How long.\n    """\n    time.sleep(seconds)\n    return "stalled"\n`;

let s: Studio;
beforeAll(async () => {
  s = await studio("journal", { "kit.py": TOOLS });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

describe("the journal of steps", () => {
  it("R-journal-key: a step key has one row; writing it again counts an attempt, and a second row is refused by the database", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/kit.py" }] });
    s.model.reply(text("Nothing to do."));
    const runId = await s.run(agent);
    const key = { step: 7, index: 1 };
    await journalStart(s.database.db, runId, key, { callId: "c7", operation: "kit__echo" });
    await journalStart(s.database.db, runId, key, { callId: "c7", operation: "kit__echo" });
    const rows = (await journalOf(s.database.db, runId)).filter((r) => r.step === 7);
    expect(rows).toEqual([expect.objectContaining({ index: 1, callId: "c7", attempts: 2, result: null })]);
    await expect(s.database.db.insert(runSteps).values({ runId, step: 7, callIndex: 1, callId: "again" })).rejects.toThrow();
    expect(await s.database.db.select().from(runSteps).where(and(eq(runSteps.runId, runId), eq(runSteps.step, 7)))).toHaveLength(1);
    // The idempotency key is the step key's, and no other step's.
    expect(idempotencyKey(runId, key)).toBe(idempotencyKey(runId, { step: 7, index: 1 }));
    expect(idempotencyKey(runId, key)).not.toBe(idempotencyKey(runId, { step: 7, index: 2 }));
  });

  it("R-journal-started: each model turn and each call has its step key, and each call its result", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/kit.py" }] });
    s.model.reply(calls({ name: "kit__echo", arguments: { text: "a" } }, { name: "kit__echo", arguments: { text: "b" } }), text("Done."));
    const runId = await s.run(agent);
    const rows = await journalOf(s.database.db, runId);
    expect(rows.map((r) => [r.step, r.index])).toEqual([[1, 0], [1, 1], [1, 2], [2, 0]]);
    // The two calls run side by side, so their results arrive in either order; the journal keeps the model's.
    const byCall = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect(rows.filter((r) => r.index > 0).map((r) => [r.callId, r.result?.outcome, r.result?.text])).toEqual(
      dataOf(await s.events(runId), "tool_result").map((r) => [r.callId, "ok", r.text]).sort(byCall),
    );
  });

  it("R-journal-timeout: a manual call that times out waits for the person, its outcome unknown, and Fail it answers the model so", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/kit.py" }], policy: { timeout_s: 1 } });
    s.model.reply(call("kit__stall", { seconds: 3 }), text("Carried on."));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const card = await waitForEvent(s.runtime, runId, "recovery_requested");
    expect(card).toMatchObject({ operation: "kit__stall", why: "timeout", round: 1 });
    await expect.poll(async () => (await s.runtime.get(runId)).run.status, { timeout: 10_000 }).toBe("waiting");
    await s.runtime.recover(runId, card.callId, "fail", ANN, "it did not finish");
    await s.runtime.idle(runId);
    expect((await s.runtime.get(runId)).run.status).toBe("done");
    expect(dataOf(await s.events(runId), "tool_result")).toEqual([expect.objectContaining({ outcome: "failed", text: `${MARKED_FAILED}: it did not finish` })]);
  });
});
