// The read side of runs (queries.ts): the list says what each waiting run waits on, read for all of them at once,
// so a page of two hundred waiting runs costs the same two statements as a page of one. Runs and their events are
// written straight into the tables here: what is read does not depend on a loop having written it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runEvents, runs, type RunStatus } from "@/db/schema";
import { ANN, studio, type Studio } from "./setup";

let s: Studio;
beforeAll(async () => {
  s = await studio("queries", {});
});
afterAll(async () => s?.close());

type Wait = [type: string, callId: string];

async function stored(agentId: string, status: RunStatus, waits: Wait[]): Promise<string> {
  const [row] = await s.database.db
    .insert(runs)
    .values({ agentId, agentVersion: 1, declaration: { name: "lister" }, startedBy: ANN.id, status })
    .returning({ id: runs.id });
  if (waits.length > 0) {
    await s.database.db.insert(runEvents).values(waits.map(([type, callId]) => ({ runId: row!.id, type, data: { callId, text: "x".repeat(1_000) } })));
  }
  return row!.id;
}

/** How many SQL statements `work` sends to the database. */
async function statements(work: () => Promise<unknown>): Promise<number> {
  const client = (s.database.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
  const spy = vi.spyOn(client, "query");
  try {
    await work();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describe("the list of runs", () => {
  it("reads what every waiting run waits on in one query, however many wait", async () => {
    const agentId = randomUUID();
    const approval = await stored(agentId, "waiting", [["approval_requested", "a"]]);
    const question = await stored(agentId, "waiting", [["question_asked", "q"]]);
    // An answered question with an approval still open waits on the approval; a decided approval with a question
    // still open waits on the answer.
    const approvalLeft = await stored(agentId, "waiting", [["question_asked", "q"], ["approval_requested", "a"], ["question_answered", "q"]]);
    const questionLeft = await stored(agentId, "waiting", [["approval_requested", "a"], ["question_asked", "q"], ["approval_decided", "a"], ["tool_result", "a"]]);
    const done = await stored(agentId, "done", [["approval_requested", "a"]]);
    for (let i = 0; i < 40; i++) await stored(agentId, "waiting", [["question_asked", `q${i}`]]);

    let listed: Awaited<ReturnType<typeof s.runtime.list>> = [];
    expect(await statements(async () => (listed = await s.runtime.list({ agentId })))).toBe(2);
    const waitingFor = new Map(listed.map((run) => [run.id, run.waitingFor]));
    expect(listed).toHaveLength(45);
    expect([approval, question, approvalLeft, questionLeft, done].map((id) => waitingFor.get(id))).toEqual(["approval", "question", "approval", "question", null]);
    expect(listed.filter((run) => run.waitingFor === "question")).toHaveLength(42);
  });

  it("reads nothing more than the runs when none of them waits", async () => {
    const agentId = randomUUID();
    await stored(agentId, "done", [["approval_requested", "a"], ["approval_decided", "a"]]);
    await stored(agentId, "failed", []);
    let listed: Awaited<ReturnType<typeof s.runtime.list>> = [];
    expect(await statements(async () => (listed = await s.runtime.list({ agentId })))).toBe(1);
    expect(listed.map((run) => run.waitingFor)).toEqual([null, null]);
  });

  it("reads one run and its whole trace in two statements", async () => {
    const id = await stored(randomUUID(), "waiting", [["approval_requested", "a"]]);
    let got: Awaited<ReturnType<typeof s.runtime.get>> | null = null;
    expect(await statements(async () => (got = await s.runtime.get(id)))).toBe(2);
    expect(got!.run).toMatchObject({ id, agentName: "lister", startedByName: ANN.name, status: "waiting" });
    expect(got!.events.map((e) => e.type)).toEqual(["approval_requested"]);
  });
});
