// Run traces across a takeover (R-otel-takeover), with real studio processes on PostgreSQL (DATABASE_URL) exporting to
// a receiver this test starts: a worker killed mid-call loses the run to the other, which opens an invoke_agent span
// of its own for the run, in a new trace, with the same conversation id, while the call answered before the kill has
// its one execute_tool span, the dead process's, and no second one; a worker paused past its lease ends its span as
// abandoned on waking. Each worker names itself in OTEL_SERVICE_NAME, so every span says which process sent it.
// Skipped where no PostgreSQL is given; the two tests run one after another, as processes.test.ts says why.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, it, type ExpectStatic } from "vitest";
import { parseEnv } from "@/server/env";
import { LEASE_SECONDS } from "@/server/runtime";
import { call, text } from "@/tests/support/loopback-model";
import { KEY, openQueueFile, ready, type QueueFile, type QueueStudio } from "@/tests/support/queue-studio";
import { studioProcess, type StudioProcess } from "@/tests/support/studio-process";
import { startReceiver, type Receiver, type Span } from "./receiver";

const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;

const KIT = `"""A quick call and one held open."""

import os
import time

from quiver import tool


@tool
def echo(words: str) -> str:
    """Say the words back.

    Args:
        words: What to say.
    """
    return words


@tool(replay="safe")
def held(hold: str) -> str:
    """Wait while the hold file exists, at most 40 s.

    Args:
        hold: The file.
    """
    for _ in range(400):
        if not os.path.exists(hold):
            break
        time.sleep(0.1)
    return "released"
`;

type Worker = StudioProcess & { service: string };

const isOp = (op: string) => (sp: Span) => sp.attributes["gen_ai.operation.name"] === op;
const ofRun = (runId: string) => (sp: Span) => sp.attributes["gen_ai.conversation.id"] === runId;

describe.skipIf(!databaseUrl)("run traces across a takeover, on PostgreSQL", () => {
  let file: QueueFile;
  let receiver: Receiver;
  const dirs: string[] = [];

  /** Two traced workers on the test's queue, each exporting to the receiver under a service name of its own. */
  async function tracedPair(expect: ExpectStatic, queue: string): Promise<Worker[]> {
    const pair = ["a", "b"].map((side) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-otel-takeover-"));
      dirs.push(dataDir);
      const service = `quiver-${queue}-${side}`;
      const env = { DATABASE_URL: databaseUrl, QUIVER_SECRET_KEY: KEY, QUIVER_ROLE: "worker", QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: file.tree, QUIVER_RUN_QUEUE: queue };
      return Object.assign(studioProcess({ ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: service }), { service });
    });
    await Promise.all(pair.map((w) => ready(expect, w)));
    return pair;
  }

  /** Starts the run, waits until `callId` is running and one worker holds the run; returns the holder and the other. */
  async function heldRun(expect: ExpectStatic, s: QueueStudio, pair: Worker[], callId: string) {
    const { runId } = await s.web.start({ agentId: await s.agent([{ entry: "tools/kit.py" }]), message: "Go.", user: file.person });
    await expect.poll(async () => (await s.events(runId)).some((e) => e.type === "tool_started" && e.data.callId === callId), { timeout: 30_000, interval: 100 }).toBe(true);
    await expect.poll(() => pair.filter((w) => w.live.has(runId)).length, { timeout: 20_000, interval: 50 }).toBe(1);
    const holder = pair.find((w) => w.live.has(runId))!;
    return { runId, holder, other: pair.find((w) => w !== holder)! };
  }

  /** Stops what is still running: a SIGTERM sends the spans a worker has ended (R-otel-on) before it exits. */
  async function stopAll(pair: Worker[]): Promise<void> {
    for (const w of pair) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGTERM");
    await Promise.all(pair.map((w) => w.exited));
  }

  const holdFile = () => {
    const hold = path.join(file.tree, ".effects", `${randomUUID()}.hold`);
    fs.writeFileSync(hold, "");
    return hold;
  };
  const from = (w: Worker) => (sp: Span) => sp.resource["service.name"] === w.service;

  beforeAll(async () => {
    receiver = await startReceiver();
    file = await openQueueFile(databaseUrl!, "otel-takeover", { "kit.py": KIT }, [".effects"]);
  }, 60_000);
  afterAll(async () => {
    await file?.close();
    await receiver?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("R-otel-takeover: the process that takes a run over opens its own invoke_agent span, and a call answered before has no second execute_tool span", async ({ expect }) => {
    const s = await file.open("test-otel-takeover-kill");
    const pair = await tracedPair(expect, "test-otel-takeover-kill");
    try {
      const hold = holdFile();
      s.model.reply(call("kit__echo", { words: "before" }, "call-before"), call("kit__held", { hold }, "call-held"), text("Done after the takeover."));
      const { runId, holder, other } = await heldRun(expect, s, pair, "call-held");
      // The answered call's span is sent in the holder's next batch; wait for it, so the kill loses nothing of it.
      await expect.poll(() => receiver.spans().filter((sp) => from(holder)(sp) && sp.attributes["gen_ai.tool.call.id"] === "call-before").length, { timeout: 20_000, interval: 100 }).toBe(1);
      holder.child.kill("SIGKILL");
      await holder.exited;
      fs.rmSync(hold);
      await expect.poll(() => other.live.has(runId), { timeout: (LEASE_SECONDS + 15) * 1000, interval: 50 }).toBe(true);
      await expect.poll(() => s.status(runId), { timeout: 30_000 }).toBe("done");
      await stopAll(pair);

      const spans = receiver.spans();
      const before = spans.filter((sp) => sp.attributes["gen_ai.tool.call.id"] === "call-before");
      // One span for the call answered before the takeover: the dead process's.
      expect(before.map((sp) => [sp.name, sp.resource["service.name"], sp.attributes["quiver.tool.outcome"]])).toEqual([["execute_tool kit__echo", holder.service, "ok"]]);
      // The dead process's invoke_agent span was open when it died: never ended, never sent.
      expect(spans.filter((sp) => from(holder)(sp) && isOp("invoke_agent")(sp))).toEqual([]);

      const invokes = spans.filter((sp) => isOp("invoke_agent")(sp) && ofRun(runId)(sp));
      expect(invokes.map((sp) => sp.resource["service.name"])).toEqual([other.service]);
      const root = invokes[0]!;
      expect(root.parent).toBeNull();
      expect(root.traceId).not.toBe(before[0]!.traceId);
      expect(root.attributes["quiver.run.status"]).toBe("done");
      const taken = spans.filter((sp) => sp.traceId === root.traceId);
      expect(taken.every(from(other))).toBe(true);
      // The call in flight at the kill is safe to replay, so it ran again here, under the new span.
      expect(taken.filter(isOp("execute_tool")).map((sp) => [sp.attributes["gen_ai.tool.call.id"], sp.parent])).toEqual([["call-held", root.spanId]]);
      // The model was asked three times in all; the new process asked it only what was left, and counts only its tokens.
      expect(s.model.requests).toHaveLength(3);
      const chats = taken.filter(isOp("chat"));
      expect(chats).toHaveLength(1);
      expect(root.attributes["gen_ai.usage.input_tokens"]).toBe(chats[0]!.attributes["gen_ai.usage.input_tokens"]);
      expect(root.attributes["gen_ai.usage.output_tokens"]).toBe(chats[0]!.attributes["gen_ai.usage.output_tokens"]);
    } finally {
      for (const w of pair) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
      await s.close();
    }
  }, 150_000);

  it("R-otel-takeover: a process paused past its lease ends its invoke_agent span as abandoned on waking, and the taker's is a trace of its own", async ({ expect }) => {
    const s = await file.open("test-otel-takeover-pause");
    const pair = await tracedPair(expect, "test-otel-takeover-pause");
    try {
      const hold = holdFile();
      s.model.reply(call("kit__held", { hold }, "call-paused"), text("Done after the pause."));
      const { runId, holder, other } = await heldRun(expect, s, pair, "call-paused");
      process.kill(holder.pid, "SIGSTOP");
      try {
        await expect.poll(() => other.live.has(runId), { timeout: (LEASE_SECONDS + 15) * 1000, interval: 50 }).toBe(true);
        fs.rmSync(hold);
        await expect.poll(() => s.status(runId), { timeout: 30_000 }).toBe("done");
      } finally {
        process.kill(holder.pid, "SIGCONT");
      }
      await expect.poll(() => holder.live.has(runId), { timeout: 10_000, interval: 50 }).toBe(false);
      await stopAll(pair);

      const invokes = receiver.spans().filter((sp) => isOp("invoke_agent")(sp) && ofRun(runId)(sp));
      const paused = invokes.filter(from(holder));
      const taker = invokes.filter(from(other));
      expect(paused).toHaveLength(1);
      expect(taker).toHaveLength(1);
      expect(paused[0]!.attributes["quiver.run.status"]).toBe("abandoned");
      // Giving a run up is not an error of it.
      expect(paused[0]!.attributes["error.type"]).toBeUndefined();
      expect(paused[0]!.status).not.toBe(2);
      expect(taker[0]!.attributes["quiver.run.status"]).toBe("done");
      expect(taker[0]!.traceId).not.toBe(paused[0]!.traceId);
      expect(receiver.spans().filter((sp) => sp.traceId === taker[0]!.traceId && isOp("execute_tool")(sp)).map((sp) => sp.attributes["gen_ai.tool.call.id"])).toEqual(["call-paused"]);
    } finally {
      for (const w of pair) {
        if (w.child.exitCode !== null || w.child.signalCode !== null) continue;
        process.kill(w.pid, "SIGCONT");
        w.child.kill("SIGKILL");
      }
      await s.close();
    }
  }, 150_000);
});
