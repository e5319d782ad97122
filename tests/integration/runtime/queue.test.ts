// Studio processes sharing one database through the run queue (queue.ts), as Runtimes over one PGlite joined by a
// channel in memory with LISTEN/NOTIFY's contract (every listener hears every payload, a moment later): a web one
// that only queues runs, and workers that take them. Real processes on PostgreSQL, killed mid-run, are
// tests/integration/runtime/processes.test.ts's.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Channel } from "@/db/client";
import { runWords } from "@/db/schema";
import { Runtime } from "@/server/runtime";
import { call, text } from "@/tests/support/loopback-model";
import { ANN, sleep, studio, waitForEvent, type Studio } from "./setup";

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
/** The worker: takes every run the web process queues. */
let worker: Runtime;

const process = async (role: "web" | "worker"): Promise<Runtime> => {
  const runtime = new Runtime({ db: s.database.db, channel, tree: s.tree, dataDir: s.dataDir, modelRetries: 0, role });
  await runtime.connect();
  return runtime;
};

beforeAll(async () => {
  channel = memoryChannel();
  // The studio's own runtime is the web process: it serves and queues, and drives nothing.
  s = await studio("queue", { "box.py": BOX }, { channel, role: "web" });
  await s.runtime.connect();
  worker = await process("worker");
});
beforeEach(() => s.model.reset());
afterAll(async () => {
  await worker?.shutdown();
  await s?.close();
});

const asking = () => s.agent({ tools: [{ entry: "tools/box.py", permissions: { box__put: "ASK" } }] });

describe("a web process and a worker sharing the database", () => {
  it("R-queue-role: a worker drives the run a web process started; the web process follows it live", async () => {
    s.model.reply(text("Hello from the worker."));
    const { runId } = await s.runtime.start({ agentId: await asking(), message: "Hi.", user: ANN });
    expect(s.runtime.isLive(runId)).toBe(false);
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "done");
    await worker.idle(runId);
    expect((await s.runtime.get(runId)).events.filter((e) => e.type === "message").map((e) => e.data.text)).toEqual(["Hi.", "Hello from the worker."]);
  });

  it("R-queue-word: a decision given through the web process is written, then applied by the worker holding the run; a second one is refused", async () => {
    s.model.reply(call("box__put", { key: "k" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: await asking(), message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");
    await expect(s.runtime.decide(runId, "no-such-call", "once", ANN)).rejects.toMatchObject({ kind: "CONFLICT", reason: "NO_APPROVAL_WAITING" });
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    await expect(s.runtime.decide(runId, asked.callId, "deny", ANN)).rejects.toMatchObject({ reason: "NO_APPROVAL_WAITING" });
    expect(await s.database.db.select().from(runWords).where(eq(runWords.runId, runId))).toHaveLength(1);
    await worker.idle(runId);
    const { run, events } = await s.runtime.get(runId);
    expect(run.status).toBe("done");
    expect(events.filter((e) => e.type === "approval_decided")).toHaveLength(1);
    expect(events.filter((e) => e.type === "tool_result").map((e) => e.data.text)).toEqual(["put k"]);
  });

  it("R-queue-word: stops a run the worker holds through the web process", async () => {
    s.model.reply(call("box__put", { key: "k" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: await asking(), message: "Go.", user: ANN });
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");
    await s.runtime.cancel(runId, ANN);
    await worker.idle(runId);
    expect((await s.runtime.get(runId)).run.status).toBe("cancelled");
  });

  it("R-queue-word: a decision whose notice never arrives is applied at the holder's next lease refresh", async () => {
    // A web process that cannot notify anyone: its word reaches the worker only through the database.
    const deaf = new Runtime({ db: s.database.db, tree: s.tree, dataDir: s.dataDir, modelRetries: 0, role: "web" });
    s.model.reply(call("box__put", { key: "k" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: await asking(), message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");
    await deaf.decide(runId, asked.callId, "once", ANN);
    const decided = Date.now();
    await worker.idle(runId);
    expect(Date.now() - decided).toBeLessThan(6_000);
    expect((await s.runtime.get(runId)).run.status).toBe("done");
    await deaf.shutdown();
  });

  it("R-queue-lease: a run whose worker stopped is taken by the next worker, which applies the decision written meanwhile", async () => {
    s.model.reply(call("box__put", { key: "k" }), text("done"));
    const { runId } = await s.runtime.start({ agentId: await asking(), message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");
    await worker.shutdown();
    // Nobody holds the run now: the decision is written and waits for the next holder.
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    worker = await process("worker");
    await worker.idle(runId);
    const { run, events } = await s.runtime.get(runId);
    expect(run.status).toBe("done");
    expect(events.filter((e) => e.type === "approval_requested")).toHaveLength(1);
    expect(events.filter((e) => e.type === "tool_result").map((e) => e.data.text)).toEqual(["put k"]);
    expect(events.map((e) => Number(e.id))).toEqual([...events.map((e) => Number(e.id))].sort((a, b) => a - b));
  });

  it("R-queue-stop-ended: a worker stopped while its run writes its end lets it finish: the run ends done and its job is done, not given back", async () => {
    // A run's row takes a second to say it is done: the worker is stopped while its run is writing its end.
    await s.database.db.execute(sql`create function quiver_slow_end() returns trigger language plpgsql as $$ begin if new.status = 'done' then perform pg_sleep(1); end if; return new; end $$`);
    await s.database.db.execute(sql`create trigger quiver_slow_end before update on runs for each row execute function quiver_slow_end()`);
    let runId: string;
    try {
      s.model.reply(text("Finished."));
      ({ runId } = await s.runtime.start({ agentId: await asking(), message: "Hi.", user: ANN }));
      await waitForEvent(worker, runId, "message", (m) => m.role === "assistant");
      await sleep(300);
      await worker.shutdown();
    } finally {
      await s.database.db.execute(sql`drop trigger quiver_slow_end on runs`);
      await s.database.db.execute(sql`drop function quiver_slow_end()`);
    }
    const { run, events } = await s.runtime.get(runId);
    expect(run.status).toBe("done");
    expect(events.at(-1)).toMatchObject({ type: "status", data: { status: "done" } });
    const jobs = (await s.database.db.execute(sql`select state from pgboss.job where singleton_key = ${runId}`)) as unknown as { rows: { state: string }[] };
    expect(jobs.rows.map((j) => j.state)).toEqual(["completed"]);
    worker = await process("worker");
  });
});
