// A specialist's call that may have run, in the run that asked it (R-spec-approvals, R-journal-manual): a manual tool
// of the specialist times out (R-journal-timeout), its wait shows in the asking run under the mirrored id, which the
// runs list says waits on a call that may have run; a word given there reaches the specialist, round by round, and
// one given in the specialist's own run closes the asking run's wait. Through the real loop, host and loopback model.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, text, type RecordedRequest, type Reply } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, waitForEvent, type Studio } from "./setup";
import { SLOW_LEDGER as LEDGER } from "@/tests/support/slow-ledger";

const BOB = { id: "user-bob", name: "Bob" };
let s: Studio;
let n = 0;

beforeAll(async () => {
  s = await studio("specialist-recovery", { "ledger.py": LEDGER });
});
afterAll(async () => s?.close());

/** Each agent's instructions name it, and the loopback model answers from that agent's script. */
function script(byAgent: Record<string, Reply[]>): void {
  s.model.fallback = (request: RecordedRequest) => {
    const system = request.body.messages.find((m) => m.role === "system")?.content;
    const who = typeof system === "string" ? (/You are (\S+)\./.exec(system)?.[1] ?? null) : null;
    const next = who ? byAgent[who]?.shift() : undefined;
    if (!next) return { status: 500, message: `nothing scripted for ${who ?? "an unknown agent"}` };
    return typeof next === "function" ? next(request) : next;
  };
}

/** An asking run waiting on its specialist's ledger call, which timed out. */
async function waitingPair() {
  const k = ++n;
  const child = await s.agent({ name: `Clerk ${k}`, instructions: `You are clerk${k}.`, tools: [{ entry: "tools/ledger.py" }] });
  const parent = await s.agent({ name: `Desk ${k}`, instructions: `You are desk${k}.`, tools: [{ entry: `agent:${child}` }] as never });
  script({
    [`desk${k}`]: [call(`ask_clerk_${k}`, { message: "Post the entry." }), text("The clerk is done.")],
    [`clerk${k}`]: [call("ledger__post", { seconds: 2 }), text("The entry is settled.")],
  });
  const { runId } = await s.runtime.start({ agentId: parent, message: "Post it, please.", user: ANN });
  const childId = (await waitForEvent(s.runtime, runId, "specialist")).runId;
  const asked = await waitForEvent(s.runtime, runId, "recovery_requested");
  const childAsked = await waitForEvent(s.runtime, childId, "recovery_requested");
  return { runId, childId, asked, childAsked };
}

describe("a specialist's call that may have run, in the asking run", () => {
  it("R-spec-approvals: shows in the asking run, listed as waiting on a call that may have run, and Mark as done there reaches the specialist", async () => {
    const { runId, childId, asked, childAsked } = await waitingPair();
    expect(asked).toMatchObject({ operation: "ledger__post", why: "timeout", round: 1, callId: expect.stringMatching(new RegExp(`/${childAsked.callId}$`)) });
    await expect.poll(async () => (await s.runtime.get(runId)).run.status).toBe("waiting");
    expect((await s.runtime.list({})).find((r) => r.id === runId)?.waitingFor).toBe("recovery");

    await s.runtime.recover(runId, asked.callId, "done", ANN, "Entry 17 was posted.");
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(childId), "recovery_decided")).toEqual([expect.objectContaining({ callId: childAsked.callId, action: "done", text: "Entry 17 was posted.", by: ANN })]);
    expect(dataOf(await s.events(childId), "tool_result")).toEqual([expect.objectContaining({ callId: childAsked.callId, outcome: "ok", text: "Entry 17 was posted." })]);
    expect(dataOf(await s.events(runId), "recovery_decided")).toEqual([expect.objectContaining({ callId: asked.callId, action: "done", by: ANN })]);
  });

  it("R-journal-manual: Run again from the asking run asks anew when the call times out again, and that round's word is passed on too", async () => {
    const { runId, childId, asked } = await waitingPair();
    await s.runtime.recover(runId, asked.callId, "again", ANN);
    const second = await waitForEvent(s.runtime, runId, "recovery_requested", (e) => e.round === 2);
    expect(second.callId).toBe(asked.callId);
    await s.runtime.recover(runId, asked.callId, "fail", ANN, "the ledger is down");
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(childId), "recovery_decided").map((d) => [d.action, d.round])).toEqual([["again", 1], ["fail", 2]]);
    expect(dataOf(await s.events(childId), "tool_result").at(-1)).toMatchObject({ outcome: "failed", text: expect.stringContaining("the ledger is down") });
  });

  it("R-spec-approvals: a word given in the specialist's own run closes the asking run's wait", async () => {
    const { runId, childId, asked, childAsked } = await waitingPair();
    await s.runtime.recover(childId, childAsked.callId, "fail", BOB, "not posted");
    expect((await settled(s, runId)).status).toBe("done");
    expect(dataOf(await s.events(runId), "recovery_decided")).toEqual([expect.objectContaining({ callId: asked.callId, action: "fail", by: BOB })]);
    await expect(s.runtime.recover(runId, asked.callId, "done", ANN, "late")).rejects.toMatchObject({ kind: "CONFLICT" });
  });
});
