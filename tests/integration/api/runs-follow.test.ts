// The runs API over real HTTP: a run started with a key is followed over server-sent events to its end, resumed
// with Last-Event-ID without anything twice or anything lost, kept open by comments while it waits on a person, and
// read whole; each use leaves an audit row naming the key, and the run says it came through that key
// (R-api-runs-events, R-api-runs-read, R-api-runs-start).
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call as modelCall, text } from "@/tests/support/loopback-model";
import { serveOverHttp } from "../http/studio";
import { apiStudio, bearer, call, readEvents, type ApiStudio, type RunStarted, type RunView, type SseEvent } from "./runs-studio";

const NOTES = `"""Notes."""

import time


def write(subject: str) -> str:
    """Write one note.

    Args:
        subject: The note's name.
    """
    time.sleep(0.3)
    return f"wrote {subject}"
`;

let s: ApiStudio;
let agent: string;
let key: { value: string; id: string; name: string };

beforeAll(async () => {
  s = await apiStudio("api-runs-follow", { "notes.py": NOTES });
  agent = await s.agent("scribe", [{ entry: "tools/notes.py", permissions: { notes__write: "ALLOW" } }]);
  key = await s.key({ name: "ci job" });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

const stored = (events: SseEvent[]) => events.filter((e) => e.id !== null && !e.id.includes("."));
const ids = (events: SseEvent[]) => stored(events).map((e) => Number(e.id));

async function start(message: string): Promise<{ runId: string; events: string }> {
  const answer = await call<RunStarted>(`${s.url}/api/v1/agents/${agent}/runs`, { key: key.value, body: { message } });
  expect(answer.status).toBe(201);
  return { runId: answer.json!.runId, events: `${s.url}${answer.json!.links.events}` };
}

describe("following a run", () => {
  it("starts a run from a message and follows its events over SSE until the run ends", async () => {
    s.model.reply(modelCall("notes__write", { subject: "tea" }), text("Wrote the note on tea.", { paceMs: 20 }));
    const answer = await call<RunStarted>(`${s.url}/api/v1/agents/${agent}/runs`, { key: key.value, body: { message: "Write about tea." } });
    expect(answer.status).toBe(201);
    const runId = answer.json!.runId;
    expect(answer.json).toEqual({ runId, status: "running", links: { run: `/api/v1/runs/${runId}`, events: `/api/v1/runs/${runId}/events` } });
    expect(answer.headers.get("location")).toBe(`/api/v1/runs/${runId}`);

    const read = await readEvents(`${s.url}/api/v1/runs/${runId}/events`, bearer(key.value));
    expect(read.status).toBe(200);
    expect(read.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(read.ended).toBe(true);
    // Every frame's id: line and event: line are the event's own id and type.
    expect(read.events.every((e) => e.id === e.data!.id && e.event === e.data!.type)).toBe(true);
    const types = stored(read.events).map((e) => e.event);
    expect(types[0]).toBe("run_started");
    expect(types).toEqual(expect.arrayContaining(["message", "tool_call", "tool_started", "tool_result"]));
    expect(stored(read.events).at(-1)!.data).toMatchObject({ type: "status", data: { status: "done" } });
    expect(ids(read.events)).toEqual([...ids(read.events)].sort((a, b) => a - b));
    // The reply's text arrives as it is made, each piece with the id before it and a dot.
    const deltas = read.events.filter((e) => e.event === "delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((e) => /^\d+\.\d+$/.test(e.id!))).toBe(true);

    const run = await call<RunView>(`${s.url}/api/v1/runs/${runId}`, { key: key.value });
    expect(run.status).toBe(200);
    expect(run.json).toMatchObject({
      id: runId,
      agent: { id: agent, name: "scribe" },
      status: "done",
      startedBy: { name: "API key ci job" },
      via: { kind: "api", keyName: "ci job" },
      waiting: { approvals: [], questions: [], recoveries: [] },
      lastEventId: stored(read.events).at(-1)!.id,
    });
    expect(run.json!.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "Write about tea."],
      ["assistant", ""],
      ["assistant", "Wrote the note on tea."],
    ]);
    expect(run.json!.calls).toEqual([
      expect.objectContaining({ name: "notes__write", args: { subject: "tea" }, state: "finished", decision: null, result: expect.objectContaining({ outcome: "ok", text: "wrote tea", truncated: false }) }),
    ]);
    expect(run.json!.messages[1]!.callIds).toEqual([run.json!.calls[0]!.callId]);

    // The run says how it started, and each use of the key left its row.
    const { getDb } = await import("@/server/db");
    const { audit, runs } = await import("@/db/schema");
    const db = await getDb();
    const [row] = await db.select({ via: runs.via, keyId: runs.viaKeyId, keyName: runs.viaKeyName }).from(runs).where(eq(runs.id, runId));
    expect(row).toEqual({ via: "api", keyId: key.id, keyName: "ci job" });
    const uses = await db.select({ action: audit.action, detail: audit.detail }).from(audit).where(and(eq(audit.target, runId)));
    expect(uses.map((u) => u.action).sort()).toEqual(["run.follow", "run.read", "run.start"]);
    expect(uses.every((u) => u.detail.key === "ci job" && u.detail.agentId === agent)).toBe(true);
  });

  it("resumes with Last-Event-ID: what followed that id, nothing twice and nothing lost", async () => {
    s.model.reply(
      modelCall("notes__write", { subject: "one" }),
      modelCall("notes__write", { subject: "two" }),
      modelCall("notes__write", { subject: "three" }),
      text("Three notes.", { paceMs: 10 }),
    );
    const { runId, events } = await start("Write three notes.");
    // The client drops the connection after the first result, while the run goes on.
    const first = await readEvents(events, bearer(key.value), (e) => e.event === "tool_result");
    expect(first.ended).toBe(false);
    const last = stored(first.events).at(-1)!.id!;
    const rest = await readEvents(events, bearer(key.value, { "last-event-id": last }));
    expect(rest.ended).toBe(true);
    expect(Math.min(...ids(rest.events))).toBeGreaterThan(Number(last));

    // Everything the run stored, read again from the start once it ended.
    const whole = await readEvents(events, bearer(key.value));
    expect(whole.ended).toBe(true);
    expect([...ids(first.events), ...ids(rest.events)]).toEqual(ids(whole.events));
    expect(stored(whole.events).filter((e) => e.event === "tool_result")).toHaveLength(3);

    // Resuming from the last id of an ended run ends at once with nothing; the query form works as the header does.
    const after = await readEvents(`${events}?lastEventId=${stored(whole.events).at(-1)!.id}`, bearer(key.value));
    expect(after).toMatchObject({ status: 200, ended: true, events: [] });
    // A text delta's id resumes after the stored event it followed.
    const delta = first.events.find((e) => e.event === "delta") ?? rest.events.find((e) => e.event === "delta")!;
    const fromDelta = await readEvents(events, bearer(key.value, { "last-event-id": delta.id! }));
    expect(ids(fromDelta.events)).toEqual(ids(whole.events).filter((id) => id > Number.parseInt(delta.id!, 10)));
    expect(runId).toBeTruthy();
  });

  it("keeps a stream open with comments while the run waits for approval, and goes on to the end once it is decided", async () => {
    const asking = await s.agent("careful", [{ entry: "tools/notes.py", permissions: { notes__write: "ASK" } }]);
    s.model.reply(modelCall("notes__write", { subject: "rent" }), text("Done."));
    const started = await call<RunStarted>(`${s.url}/api/v1/agents/${asking}/runs`, { key: key.value, body: { message: "Write about rent." } });
    const runId = started.json!.runId;
    // The same stream with a short keep-alive, so the test need not wait the route's fifteen seconds.
    const { runEventStream } = await import("@/server/api/runs-events");
    const { studioRuntime } = await import("@/server/runtime");
    const { getDb } = await import("@/server/db");
    const quick = await serveOverHttp(async (request) => {
      const from = request.headers.get("last-event-id");
      const body = await runEventStream(await studioRuntime(), await getDb(), runId, from, request.signal, { keepAliveMs: 100 });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });
    try {
      const port = (quick.address() as AddressInfo).port;
      const waiting = readEvents(`http://127.0.0.1:${port}/`, {}, (e) => e.event === "approval_requested", 15_000);
      const asked = await waiting;
      const callId = (asked.events.at(-1)!.data!.data as { callId: string }).callId;
      // Waiting: the stream says nothing but comments.
      const quiet = await readEvents(`http://127.0.0.1:${port}/`, { "last-event-id": asked.events.at(-1)!.id! }, () => false, 700);
      expect(quiet.ended).toBe(false);
      expect(quiet.events.filter((e) => e.event !== "status")).toEqual([]);
      expect(quiet.comments.filter((c) => c === "keep-alive").length).toBeGreaterThanOrEqual(3);

      const decided = await call(`${s.url}/api/v1/runs/${runId}/decisions`, { key: key.value, body: { callId, decision: "approve_once" } });
      expect(decided.status).toBe(200);
      const rest = await readEvents(`http://127.0.0.1:${port}/`, { "last-event-id": asked.events.at(-1)!.id! });
      expect(rest.ended).toBe(true);
      expect(rest.events.map((e) => e.event)).toEqual(expect.arrayContaining(["approval_decided", "tool_result", "status"]));
    } finally {
      quick.closeAllConnections();
      quick.close();
    }
  });
});
