// A specialist's tool asking the person through ctx.io (R-tool-io-cards, R-spec-approvals): the request is mirrored
// into the asking run under the mirrored call of that tool, the asking run waits on it, and a decision given there,
// with its note, reaches the tool in the specialist's run.
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, text, type RecordedRequest, type Reply } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, waitForEvent, type Studio } from "./setup";

const DESK = `"""A desk whose tool shows its plan first."""

from quiver import Context


def plan(ctx: Context) -> str:
    """Plan the work, once the person approves the plan."""
    approved, note = ctx.io.request_plan_approval("1. read\\n2. write")
    return f"plan: {approved} {note!r}"
`;

let s: Studio;

beforeAll(async () => {
  s = await studio("tool-io-specialist", { "desk.py": DESK });
});
afterAll(async () => s?.close());

/** Replies by agent, each agent's instructions naming it. */
function script(byAgent: Record<string, Reply[]>): void {
  s.model.fallback = (request: RecordedRequest) => {
    const system = request.body.messages.find((m) => m.role === "system")?.content;
    const who = typeof system === "string" ? /You are (\S+)\./.exec(system)?.[1] : undefined;
    const next = who ? byAgent[who]?.shift() : undefined;
    if (!next) return { status: 500, message: `nothing scripted for ${who ?? "an unknown agent"}` };
    return typeof next === "function" ? next(request) : next;
  };
}

it("R-tool-io-cards: a specialist's tool's plan approval waits in the asking run, under the tool's mirrored call, and the note reaches the tool", async () => {
  const child = await s.agent({ name: "Planner", instructions: "You are planner.", tools: [{ entry: "tools/desk.py" }] });
  const parent = await s.agent({ name: "Lead", instructions: "You are lead.", tools: [{ entry: `agent:${child}` }] as never });
  const ask = "ask_planner";
  script({ lead: [call(ask, { message: "Plan the work." }), text("Planned.")], planner: [call("desk__plan", {}), text("The plan was rejected.")] });
  const { runId } = await s.runtime.start({ agentId: parent, message: "Plan it.", user: ANN });

  const asked = await waitForEvent(s.runtime, runId, "approval_requested");
  const mirroredTool = dataOf(await s.events(runId), "tool_call").find((c) => c.name === "desk__plan")!;
  expect(asked).toMatchObject({ parent: mirroredTool.callId, io: { kind: "plan", plan: "1. read\n2. write" }, grantable: false });
  expect(asked.callId).toBe(`${mirroredTool.callId}/io-1`);
  await expect.poll(async () => (await s.runtime.get(runId)).run.status).toBe("waiting");

  await s.runtime.decide(runId, asked.callId, "deny", ANN, "smaller steps");
  expect((await settled(s, runId)).status).toBe("done");
  const childRun = dataOf(await s.events(runId), "specialist")[0]!.runId;
  expect(dataOf(await s.events(childRun), "tool_result")[0]).toMatchObject({ outcome: "ok", text: "plan: False 'smaller steps'" });
  expect(dataOf(await s.events(childRun), "approval_decided")).toEqual([expect.objectContaining({ decision: "deny", note: "smaller steps" })]);
});
