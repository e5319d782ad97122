// An exec tool is never cut while its card is on screen (R-exec-budget), through the real loop, tool host and
// loopback model: Quiver keeps that promise by stopping the call's clock while a card waits, rather than by giving
// exec tools a longer budget. A tree tool with RISK = "exec" and a one-second TIMEOUT waits on an approval card for
// longer than that, before it starts and while it runs, and still runs to its result once approved.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, text } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, sleep, studio, waitForEvent, type Studio } from "./setup";

const SHELL = `"""Commands, run for the agent."""

import time

from quiver import Context, tool

RISK = "exec"
TIMEOUT = 1


@tool()
def deploy(target: str) -> str:
    """Deploy to a target.

    Args:
        target: Where to.
    """
    time.sleep(0.3)
    return f"deployed to {target}"


@tool()
def rollout(target: str, ctx: Context) -> str:
    """Deploy, noting it in the agent's memory first (which asks the person).

    Args:
        target: Where to.
    """
    time.sleep(0.3)
    ctx.system.memory.memory_set(key="last", value=target)
    time.sleep(0.3)
    return f"rolled out to {target}"
`;

let s: Studio;

beforeAll(async () => {
  s = await studio("exec-budget", { "shell.py": SHELL });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

describe("an exec tool waiting on a card", () => {
  it("R-exec-budget: an exec tool whose approval card waits past its timeout runs to its result once approved", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/shell.py#shell__deploy", permissions: { shell__deploy: "ASK" } }] });
    s.model.reply(call("shell__deploy", { target: "staging" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Ship it.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await sleep(2_000); // twice the tool's TIMEOUT, with the card on screen
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    expect(dataOf(events, "tool_started")).toMatchObject([{ operation: "shell__deploy", timeoutS: 1 }]);
    expect(dataOf(events, "tool_result")).toMatchObject([{ outcome: "ok", text: "deployed to staging" }]);
  });

  it("R-exec-budget: a card a running exec tool raises stops its clock, so the call is not cut while the card waits", async () => {
    const agent = await s.agent({
      tools: [{ entry: "tools/shell.py#shell__rollout" }, { entry: "system:memory#memory_set", permissions: { memory_set: "ASK" } }],
    });
    s.model.reply(call("shell__rollout", { target: "prod" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Roll out.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    expect(asked).toMatchObject({ operation: "memory_set" });
    await sleep(2_000);
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const results = dataOf(await s.events(runId), "tool_result");
    expect(results.find((r) => r.operation === "shell__rollout")).toMatchObject({ outcome: "ok", text: "rolled out to prod" });
  });
});
