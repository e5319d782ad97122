// The runs router as the playground uses it, over the studio's own runtime (getDb, env): start, the events
// subscription as tracked ids a reconnecting browser resumes from, decide, answer, send, list and get.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, startLoopbackModel, text, type LoopbackModel } from "@/tests/support/loopback-model";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-runs-router-"));
fs.mkdirSync(path.join(scratch, "tools"));
fs.writeFileSync(
  path.join(scratch, "tools", "notes.py"),
  `"""Notes."""


def write(subject: str) -> str:
    """Write one note.

    Args:
        subject: The note's name.
    """
    return f"wrote {subject}"
`,
);
// Before anything reads the configuration.
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = path.join(scratch, "tools");
process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);

const builder = { id: "user-bea", email: "bea@quiver.test", name: "Bea", role: "builder" as const };
let model: LoopbackModel;

async function api() {
  const { appRouter } = await import("@/server/trpc/router");
  const { createCallerFactory } = await import("@/server/trpc/init");
  return createCallerFactory(appRouter)({ headers: new Headers(), user: builder });
}

type Envelope = [string, { id: string; type: string; data: Record<string, unknown> }, unknown];

/** Events from the subscription until one matches, as the browser receives them. */
async function until(runId: string, lastEventId: string | null, done: (type: string, data: Record<string, unknown>) => boolean): Promise<Envelope[]> {
  const caller = await api();
  const seen: Envelope[] = [];
  // Leaving the loop ends the subscription, as a browser closing the stream does.
  const iterable = (await caller.runs.events({ runId, lastEventId })) as unknown as AsyncIterable<Envelope>;
  for await (const envelope of iterable) {
    seen.push(envelope);
    if (done(envelope[1].type, envelope[1].data)) break;
  }
  return seen;
}

beforeAll(async () => {
  model = await startLoopbackModel();
  const { getDb } = await import("@/server/db");
  const { user } = await import("@/db/schema");
  await (await getDb()).insert(user).values({ id: builder.id, email: builder.email, name: builder.name, role: "builder" });
});

afterAll(async () => {
  const { studioRuntime } = await import("@/server/runtime");
  const { closeAll } = await import("@/server/host");
  const { closeDatabase } = await import("@/server/db");
  await (await studioRuntime()).shutdown();
  await closeAll();
  await closeDatabase();
  await model.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

it("answers the playground through tRPC: start, events as tracked ids, decide, send, list and get", async () => {
  const caller = await api();
  const agent = await caller.agents.create({
    declaration: {
      name: "scribe",
      model: { provider: "openai-compatible", model: "loopback", base_url: model.url },
      tools: [{ entry: "tools/notes.py", permissions: { notes__write: "ASK" } }, { entry: "system:ask_user" }],
    },
  });
  model.reply(call("notes__write", { subject: "tea" }), text("Wrote it."), call("ask_user", { question: "Which one?" }), text("Fine."));
  const { runId } = await caller.runs.start({ agentId: agent.id, message: "Write about tea." });

  const first = await until(runId, null, (type) => type === "approval_requested");
  expect(first.every(([id, event]) => id === event.id)).toBe(true);
  expect(first.map(([, event]) => event.type)).toContain("run_started");
  const asked = first.at(-1)![1].data as { callId: string };
  await expect(caller.runs.decide({ runId, callId: "no-such-call", decision: "once" })).rejects.toThrow(/not waiting for approval/);
  await caller.runs.decide({ runId, callId: asked.callId, decision: "always" });

  // A browser that reconnects sends the last id it saw and gets what followed.
  const rest = await until(runId, first.at(-1)![0], (type, data) => type === "status" && data.status === "done");
  expect(Number(rest[0]![0])).toBeGreaterThan(Number(first.at(-1)![0]));
  expect(rest.map(([, e]) => e.type)).toContain("tool_result");

  await caller.runs.send({ runId, message: "Ask me something." });
  const [questionId, questionEvent] = (await until(runId, rest.at(-1)![0], (type) => type === "question_asked")).at(-1)!;
  const question = questionEvent.data as { callId: string; question: string };
  expect(question.question).toBe("Which one?");
  await caller.runs.answer({ runId, callId: question.callId, answer: "the green one" });
  const answered = await until(runId, questionId, (type, data) => type === "status" && data.status === "done");
  expect(answered.find(([, e]) => e.type === "tool_result")![1].data.text).toBe("The user answered: the green one");

  const listed = await caller.runs.list({ agentId: agent.id });
  expect(listed.map((r) => [r.id, r.agentName, r.startedByName])).toEqual([[runId, "scribe", "Bea"]]);
  expect(await caller.runs.list({ status: "failed" })).toEqual([]);
  const got = await caller.runs.get({ runId });
  expect(got.run.id).toBe(runId);
  expect(got.events.filter((e) => e.type === "message").map((e) => (e.data as { role: string }).role)).toEqual(["user", "assistant", "assistant", "user", "assistant", "assistant"]);
});
