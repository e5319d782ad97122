// Two studio processes sharing one database (coordination.ts), as two Runtimes over one PGlite joined by a channel
// in memory with LISTEN/NOTIFY's contract (every listener hears every payload, the sender's own included, a moment
// later), so the relay and takeover are checked on every machine; tests/integration/db.test.ts checks the same over
// a real PostgreSQL where DATABASE_URL is given.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Channel } from "@/db/client";
import { Runtime } from "@/server/runtime";
import { call, text } from "@/tests/support/loopback-model";
import { ANN, settled, studio, waitForEvent, type Studio } from "./setup";

const BOX = `"""Writes that ask first."""\n\n\ndef put(key: str) -> str:\n    """Write a value.\n\n    Args:\n        key: Which value.\n    """\n    return f"put {key}"\n`;

function memoryChannel(): Channel {
  const listeners = new Set<(payload: string) => void>();
  return {
    async listen(onMessage) {
      listeners.add(onMessage);
      return async () => void listeners.delete(onMessage);
    },
    async notify(payload) {
      for (const listener of [...listeners]) setImmediate(() => listener(payload));
    },
  };
}

let s: Studio;
let channel: Channel;
/** The other process: drives the runs it starts, and hears the words of the first. */
let other: Runtime;

const connected = async (): Promise<Runtime> => {
  const runtime = new Runtime({ db: s.database.db, channel, tree: s.tree, dataDir: s.dataDir, modelRetries: 0 });
  await runtime.connect();
  return runtime;
};

beforeAll(async () => {
  channel = memoryChannel();
  s = await studio("coordination", { "box.py": BOX }, { channel });
  await s.runtime.connect();
  other = await connected();
});
beforeEach(() => s.model.reset());
afterAll(async () => {
  await other?.shutdown();
  await s?.close();
});

const asking = () => s.agent({ tools: [{ entry: "tools/box.py", permissions: { box__put: "ASK" } }] });

describe("two studio processes sharing the database", () => {
  it("relays the person's decision to the process driving the run, and its refusal back", async () => {
    s.model.reply(call("box__put", { key: "k" }), text("done"));
    const { runId } = await other.start({ agentId: await asking(), message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await waitForEvent(other, runId, "status", (e) => e.status === "waiting");
    await expect(s.runtime.decide(runId, "no-such-call", "once", ANN)).rejects.toMatchObject({ kind: "CONFLICT", reason: "NO_APPROVAL_WAITING" });
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    expect(s.runtime.isLive(runId)).toBe(false);
    await other.idle(runId);
    const { run, events } = await s.runtime.get(runId);
    expect(run.status).toBe("done");
    expect(events.filter((e) => e.type === "tool_result").map((e) => e.data.text)).toEqual(["put k"]);
  });

  it("leaves a run another process drives alone at start-up, and stops it through that process", async () => {
    s.model.reply(call("box__put", { key: "k" }), text("done"));
    const { runId } = await other.start({ agentId: await asking(), message: "Go.", user: ANN });
    await waitForEvent(other, runId, "status", (e) => e.status === "waiting");
    const recovered = await s.runtime.recover();
    expect([...recovered.failed, ...recovered.waiting]).not.toContain(runId);
    await s.runtime.cancel(runId, ANN);
    await other.idle(runId);
    expect((await s.runtime.get(runId)).run.status).toBe("cancelled");
  });

  it("takes the decision itself when the process that drove the run has gone", async () => {
    s.model.reply(call("box__put", { key: "k" }), text("done"));
    const { runId } = await other.start({ agentId: await asking(), message: "Go.", user: ANN });
    const asked = await waitForEvent(other, runId, "approval_requested");
    await waitForEvent(other, runId, "status", (e) => e.status === "waiting");
    await other.shutdown();
    other = await connected();
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    expect(s.runtime.isLive(runId)).toBe(true);
    expect((await settled(s, runId)).status).toBe("done");
  });
});
