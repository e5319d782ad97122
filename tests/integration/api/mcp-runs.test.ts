// The run an MCP client's tools/call is recorded as (R-api-mcp-call), held at the runtime: one call, as the model
// would have made it, through every rule of a model's call, with no model asked, before or after, even when the run
// waits for approval across a restart; it cannot be continued as a conversation, and a stop ends it as any run.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { Runtime } from "@/server/runtime";
import type { DomainError } from "@/server/errors";
import { ANN, dataOf, settled, studio, waitForEvent, type Studio } from "../runtime/setup";

const NOTES = `"""Notes."""


def write(subject: str) -> str:
    """Write one note.

    Args:
        subject: The note's name.
    """
    return f"wrote {subject}"
`;

let s: Studio;
let agent: string;
const via = { kind: "mcp" as const, keyId: randomUUID(), keyName: "ide" };

beforeAll(async () => {
  s = await studio("mcp-runs", { "notes.py": NOTES });
  agent = await s.agent({ tools: [{ entry: "tools/notes.py", permissions: { notes__write: "ASK" } }, { entry: "system:planning" }] });
});
afterAll(async () => s?.close());

describe("a run of one client call", () => {
  it("runs the call through dispatch and ends done with its result, asking no model", async () => {
    const { runId, callId } = await s.runtime.call({ agentId: agent, name: "write_todos", args: { todos: [{ content: "tea", status: "pending" }] }, user: ANN, via });
    const run = await settled(s, runId);
    expect(run).toMatchObject({ status: "done", via: "mcp", viaKeyName: "ide" });
    const events = await s.events(runId);
    expect(dataOf(events, "tool_call")).toEqual([expect.objectContaining({ callId, name: "write_todos", operation: "write_todos" })]);
    expect(dataOf(events, "tool_result")).toEqual([expect.objectContaining({ callId, outcome: "ok" })]);
    expect(dataOf(events, "message")).toEqual([]);
    expect(s.model.requests).toHaveLength(0);
  });

  it("waits for approval across a restart, and runs the call once approved, still asking no model", async () => {
    const { runId, callId } = await s.runtime.call({ agentId: agent, name: "notes__write", args: { subject: "tea" }, user: ANN, via });
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");

    await s.runtime.shutdown();
    await s.database.close();
    s.database = await openDatabase({ dataDir: s.dataDir });
    s.runtime = new Runtime({ db: s.database.db, tree: s.tree, dataDir: s.dataDir, modelRetries: 0 });
    await s.runtime.connect();
    await expect.poll(() => s.runtime.isLive(runId), { timeout: 3_000 }).toBe(true);

    await s.runtime.decide(runId, callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const events = await s.events(runId);
    expect(dataOf(events, "tool_result")).toEqual([expect.objectContaining({ callId, outcome: "ok", text: "wrote tea" })]);
    expect(dataOf(events, "approval_requested")).toHaveLength(1);
    expect(s.model.requests).toHaveLength(0);
  });

  it("cannot be continued with a message: it is no conversation", async () => {
    const { runId } = await s.runtime.call({ agentId: agent, name: "read_todos", args: {}, user: ANN, via });
    await settled(s, runId);
    const refused = await s.runtime.send({ runId, message: "And now?", user: ANN }).catch((error: DomainError) => error);
    expect(refused).toMatchObject({ reason: "ONE_CALL_RUN" });
  });

  it("ends cancelled when stopped while it waits, the call answering that it did not run", async () => {
    const { runId, callId } = await s.runtime.call({ agentId: agent, name: "notes__write", args: { subject: "never" }, user: ANN, via });
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");
    await s.runtime.cancel(runId, ANN);
    expect((await settled(s, runId)).status).toBe("cancelled");
    expect(dataOf(await s.events(runId), "tool_result")).toEqual([expect.objectContaining({ callId, outcome: "refused", text: expect.stringMatching(/stopped the run before this call ran/) })]);
  });
});
