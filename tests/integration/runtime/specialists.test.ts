// Specialists end to end, through the real loop, tool host and loopback model: an agent asks another (R-spec-entry)
// and the task runs as a run of its own with the specialist's own registry, settings and secrets, none of which
// reach the asking model (R-spec-run); its approvals are the asking run's too, decided on either side
// (R-spec-approvals); a stop of the asker stops it (R-spec-stop); its bound is 300 s lowered by the entry
// (R-spec-timeout); a loop is refused at save and at run time (R-spec-cycle); serial calls take turns (R-spec-serial).
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { agents, runs, user } from "@/db/schema";
import { createAgent, saveAgent } from "@/server/agents/store";
import { createSecret } from "@/server/secrets/store";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { Runtime, type RunEvent } from "@/server/runtime";
import { call, calls, offeredTools, text, toolMessages, type RecordedRequest, type Reply } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, waitForEvent, type Studio } from "./setup";

const DESK = `"""A desk a specialist works at; writes and holds are logged, so a test can tell what ran and when."""

import json
import time
from pathlib import Path

from quiver import Secret, tool

LOG = Path(__file__).with_name("desk.log")


class Settings:
    """What the builder sets for the desk.

    Attributes:
        greeting: How the desk greets.
        token: The desk's token.
    """

    greeting: str = "hello"
    token: Secret | None = None


def _log(**entry):
    with LOG.open("a") as f:
        f.write(json.dumps({**entry, "at": time.time()}) + "\\n")


@tool(read_only=True)
def greet(name: str, settings: Settings) -> str:
    """Greet someone with the desk's greeting.

    Args:
        name: Who to greet.
    """
    token = settings.token or ""
    return f"{settings.greeting}, {name}! token={token} reversed={token[::-1]}"


@tool(risk="write", concurrent=False)
def write(subject: str) -> str:
    """Write a note.

    Args:
        subject: The note's name.
    """
    _log(write=subject)
    return "written " + subject


@tool(concurrent=False)
def hold(seconds: float, who: str) -> str:
    """Hold the desk for a while.

    Args:
        seconds: How long.
        who: Who holds it.
    """
    _log(hold=who, edge="start")
    time.sleep(seconds)
    _log(hold=who, edge="end")
    return "held by " + who
`;

const TOKEN = "desk_live_5c4b3a2918";
const BOB = { id: "user-bob", name: "Bob" };
let s: Studio;
let n = 0;

/** Replies by agent: each agent's instructions name it, and the loopback model answers from that agent's script. */
function script(byAgent: Record<string, Reply[]>): void {
  s.model.fallback = (request: RecordedRequest) => {
    const who = agentOf(request);
    const next = who ? byAgent[who]?.shift() : undefined;
    if (!next) return { status: 500, message: `nothing scripted for ${who ?? "an unknown agent"}` };
    return typeof next === "function" ? next(request) : next;
  };
}

function agentOf(request: RecordedRequest): string | null {
  const system = request.body.messages.find((m) => m.role === "system")?.content;
  return typeof system === "string" ? (/You are (\S+)\./.exec(system)?.[1] ?? null) : null;
}

const requestsOf = (who: string) => s.model.requests.filter((r) => agentOf(r) === who);

/** A pair: a specialist on the desk (its own settings and secret), and an agent that asks it. */
async function pair(options: { childTools?: object[]; askTimeout?: number; childPolicy?: object } = {}) {
  const k = ++n;
  const ask = `ask_researcher_${k}`;
  const child = await s.agent({
    name: `Researcher ${k}`,
    instructions: `You are researcher${k}.`,
    tools: (options.childTools ?? [{ entry: "tools/desk.py#desk__greet,desk__write,desk__hold", settings: { greeting: "ahoy", token: "${DESK_TOKEN}" } }]) as never,
    ...(options.childPolicy ? { policy: options.childPolicy } : {}),
  });
  const parent = await s.agent({
    name: `Triage ${k}`,
    instructions: `You are triage${k}.`,
    tools: [{ entry: `agent:${child}`, ...(options.askTimeout ? { timeouts: { [ask]: options.askTimeout } } : {}) }, { entry: "tools/desk.py#desk__hold" }] as never,
  });
  return { child, parent, ask, childName: `researcher${k}`, parentName: `triage${k}` };
}

async function childRunOf(parentRunId: string): Promise<string> {
  return (await waitForEvent(s.runtime, parentRunId, "specialist")).runId;
}

const mirrored = (events: RunEvent[]) => dataOf(events, "tool_call").filter((c) => c.callId.includes("/"));
const deskLog = () => {
  const file = path.join(s.tree, "desk.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>) : [];
};

beforeAll(async () => {
  s = await studio("specialists", { "desk.py": DESK });
  await s.database.db.insert(user).values({ id: BOB.id, email: "bob@quiver.test", name: BOB.name, role: "builder" });
  await createSecret(s.database.db, "admin", { name: "DESK_TOKEN", value: TOKEN });
});
beforeEach(() => {
  s.model.reset();
  fs.rmSync(path.join(s.tree, "desk.log"), { force: true });
});
afterAll(async () => s?.close());

describe("an agent asking a specialist", () => {
  it("runs the task as a run of its own whose tool calls come back as the specialist's reply (R-spec-run)", async () => {
    const { child, parent, ask, childName, parentName } = await pair();
    script({
      [parentName]: [call(ask, { message: "Greet tea for me." }), text("Researcher says tea is greeted.")],
      [childName]: [call("desk__greet", { name: "tea" }), text("I greeted tea.")],
    });
    const runId = await s.run(parent, "Please greet tea.");
    const parentRun = await settled(s, runId);
    expect(parentRun.status).toBe("done");

    // The asking model was offered the one ask tool (beside its own), took the reply and nothing else of the task.
    const [first, second] = requestsOf(parentName);
    expect(offeredTools(first!)).toEqual([ask, "desk__hold"]);
    const askTool = first!.body.tools!.find((t) => t.function.name === ask)!;
    expect(askTool.function.parameters).toMatchObject({ required: ["message"], properties: { message: { type: "string" } } });
    expect(toolMessages(second!).map((m) => m.content)).toEqual(["I greeted tea."]);

    // The specialist's run: via specialist, naming its asker's run and call; its own narrowed registry only.
    const childId = await childRunOf(runId);
    const [row] = await s.database.db.select().from(runs).where(eq(runs.id, childId));
    const askCall = dataOf(await s.events(runId), "tool_call").find((c) => c.name === ask)!;
    expect(row).toMatchObject({ agentId: child, via: "specialist", parentRunId: runId, parentCallId: askCall.callId, status: "done", startedBy: ANN.id });
    const [childFirst] = requestsOf(childName);
    expect(offeredTools(childFirst!)).toEqual(["desk__greet", "desk__write", "desk__hold"]);
    expect(childFirst!.body.messages.find((m) => m.role === "user")?.content).toContain("Greet tea for me.");

    // The specialist's calls are mirrored under the asking call's card.
    const parentEvents = await s.events(runId);
    expect(mirrored(parentEvents)).toEqual([expect.objectContaining({ name: "desk__greet", parent: askCall.callId })]);
    const mirroredResult = dataOf(parentEvents, "tool_result").find((r) => r.callId.startsWith(`${askCall.callId}/`));
    expect(mirroredResult).toMatchObject({ outcome: "ok" });
    expect(dataOf(parentEvents, "tool_result").find((r) => r.callId === askCall.callId)).toMatchObject({ outcome: "ok", text: "I greeted tea." });
  });

  it("gives the specialist its own settings and secrets, and none of them reaches the asking model (R-spec-run)", async () => {
    const { parent, ask, childName, parentName } = await pair();
    script({
      [parentName]: [call(ask, { message: "Greet tea." }), text("Done.")],
      [childName]: [call("desk__greet", { name: "tea" }), text("Greeted.")],
    });
    const runId = await s.run(parent);
    const childId = await childRunOf(runId);
    const greeted = dataOf(await s.events(childId), "tool_result")[0]!;
    // The builder's greeting and the secret's value reached the tool; the value is masked in what was stored.
    expect(greeted.text).toContain("ahoy, tea!");
    expect(greeted.text).toContain(`reversed=${[...TOKEN].reverse().join("")}`);
    expect(greeted.text).not.toContain(TOKEN);
    for (const request of requestsOf(parentName)) {
      expect(request.raw).not.toContain(TOKEN);
      expect(request.raw).not.toContain("ahoy");
      expect(request.raw).not.toContain("DESK_TOKEN");
      expect(request.raw).not.toContain([...TOKEN].reverse().join(""));
    }
    expect(JSON.stringify(await s.events(runId))).not.toContain(TOKEN);
  });
});

describe("a specialist's approvals in the asking run (R-spec-approvals)", () => {
  async function waitingPair() {
    const p = await pair({ childTools: [{ entry: "tools/desk.py#desk__write", permissions: { desk__write: "ASK" } }] });
    script({
      [p.parentName]: [call(p.ask, { message: "Write the memo." }), text("The memo is handled.")],
      [p.childName]: [call("desk__write", { subject: "memo" }), text("Memo done.")],
    });
    const { runId } = await s.runtime.start({ agentId: p.parent, message: "Memo, please.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    const childId = await childRunOf(runId);
    return { ...p, runId, childId, asked };
  }

  it("shows the specialist's wait in the asking run, which waits too, and a decision there reaches the specialist", async () => {
    const { runId, childId, asked } = await waitingPair();
    const childAsked = (await waitForEvent(s.runtime, childId, "approval_requested")).callId;
    expect(asked).toMatchObject({ operation: "desk__write", callId: expect.stringMatching(new RegExp(`/${childAsked}$`)) });
    await expect.poll(async () => (await s.runtime.get(runId)).run.status).toBe("waiting");
    expect((await s.runtime.list({})).find((r) => r.id === runId)?.waitingFor).toBe("approval");

    await s.runtime.decide(runId, asked.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    expect(deskLog()).toEqual([expect.objectContaining({ write: "memo" })]);
    expect(dataOf(await s.events(childId), "approval_decided")).toEqual([expect.objectContaining({ callId: childAsked, decision: "once", by: { id: ANN.id, name: ANN.name } })]);
    expect(dataOf(await s.events(runId), "approval_decided")).toEqual([expect.objectContaining({ callId: asked.callId, decision: "once", by: { id: ANN.id, name: ANN.name } })]);
  });

  it("closes the asking run's wait when the specialist's own run is decided", async () => {
    const { runId, childId, asked } = await waitingPair();
    const childAsked = (await waitForEvent(s.runtime, childId, "approval_requested")).callId;
    await s.runtime.decide(childId, childAsked, "deny", BOB);
    expect((await settled(s, runId)).status).toBe("done");
    expect(deskLog()).toEqual([]);
    expect(dataOf(await s.events(runId), "approval_decided")).toEqual([expect.objectContaining({ callId: asked.callId, decision: "deny", by: { id: BOB.id, name: BOB.name } })]);
    // Decided once: the asking run has nothing left to decide.
    await expect(s.runtime.decide(runId, asked.callId, "once", ANN)).rejects.toThrow();
  });

  it("stops a specialist's run left waiting by a restart, whose asking call answers that the studio restarted (R-spec-stop)", async () => {
    const { runId, childId } = await waitingPair();
    await waitForEvent(s.runtime, runId, "status", (e) => e.status === "waiting");
    await s.runtime.shutdown();
    await s.database.close();
    s.database = await openDatabase({ dataDir: s.dataDir });
    s.runtime = new Runtime({ db: s.database.db, tree: s.tree, dataDir: s.dataDir, modelRetries: 0, retryMs: 10 });
    await s.runtime.connect();
    await expect.poll(async () => (await settled(s, childId)).status, { timeout: 10_000 }).toBe("cancelled");
    expect(dataOf(await s.events(childId), "cancelled")[0]!.by.name).toBe("the studio's restart");
    expect((await settled(s, runId)).status).toBe("done");
    const askResult = dataOf(await s.events(runId), "tool_result").find((r) => !r.callId.includes("/"));
    expect(askResult).toMatchObject({ outcome: "failed", text: expect.stringMatching(/^The studio restarted while this call ran/) });
    expect(deskLog()).toEqual([]);
  });
});

describe("a specialist's questions in the asking run (R-spec-approvals)", () => {
  it("puts the specialist's question to the person in the asking run, and the answer there reaches the specialist", async () => {
    const p = await pair({ childTools: [{ entry: "system:ask_user" }] });
    script({
      [p.parentName]: [call(p.ask, { message: "Find out the colour." }), text("The colour is known.")],
      [p.childName]: [call("ask_user", { question: "Which colour?", choices: ["blue", "red"] }), text("They chose blue.")],
    });
    const { runId } = await s.runtime.start({ agentId: p.parent, message: "Colour?", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "question_asked");
    expect(asked).toMatchObject({ question: "Which colour?", choices: ["blue", "red"], callId: expect.stringContaining("/") });
    await expect.poll(async () => (await s.runtime.list({})).find((r) => r.id === runId)?.waitingFor).toBe("question");
    await s.runtime.answer(runId, asked.callId, "blue", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const childId = await childRunOf(runId);
    expect(dataOf(await s.events(childId), "question_answered")).toEqual([expect.objectContaining({ answer: "blue", by: { id: ANN.id, name: ANN.name } })]);
    expect(toolMessages(requestsOf(p.parentName)[1]!)[0]!.content).toBe("They chose blue.");
  });
});

describe("stopping and bounding a specialist", () => {
  it("stops the specialist's run when the asking run is stopped (R-spec-stop)", async () => {
    const { parent, ask, childName, parentName } = await pair();
    script({ [parentName]: [call(ask, { message: "Hold the desk." })], [childName]: [call("desk__hold", { seconds: 8, who: "child" })] });
    const { runId } = await s.runtime.start({ agentId: parent, message: "Go.", user: ANN });
    const childId = await childRunOf(runId);
    await waitForEvent(s.runtime, childId, "tool_started");
    const started = performance.now();
    await s.runtime.cancel(runId, BOB);
    expect((await settled(s, runId)).status).toBe("cancelled");
    expect((await settled(s, childId)).status).toBe("cancelled");
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(dataOf(await s.events(childId), "cancelled")).toEqual([{ by: { id: BOB.id, name: BOB.name } }]);
    const askResult = dataOf(await s.events(runId), "tool_result").find((r) => !r.callId.includes("/"));
    expect(askResult?.text).toMatch(/stopped the run/);
  });

  it("ends a task at its bound, lowered by the entry, stopping the specialist's run (R-spec-timeout)", async () => {
    const { parent, ask, childName, parentName } = await pair({ askTimeout: 1 });
    script({
      [parentName]: [call(ask, { message: "Hold the desk." }), text("It took too long.")],
      [childName]: [call("desk__hold", { seconds: 6, who: "child" })],
    });
    const started = performance.now();
    const runId = await s.run(parent);
    expect((await settled(s, runId)).status).toBe("done");
    expect(performance.now() - started).toBeLessThan(5_500);
    const [, second] = requestsOf(parentName);
    expect(toolMessages(second!)[0]!.content).toMatch(new RegExp(`^TimeoutError: ${ask} did not finish within 1 s`));
    const childId = await childRunOf(runId);
    expect((await settled(s, childId)).status).toBe("cancelled");
    expect(dataOf(await s.events(childId), "cancelled")[0]!.by.name).toMatch(/1-second limit of the run that asked it/);
  });

  it("bounds a task at 300 s when the entry sets nothing lower (R-spec-timeout)", async () => {
    const { parent, ask, childName, parentName } = await pair();
    script({ [parentName]: [call(ask, { message: "Quick." }), text("Ok.")], [childName]: [text("Quick answer.")] });
    const runId = await s.run(parent);
    const askCall = dataOf(await s.events(runId), "tool_call").find((c) => c.name === ask)!;
    expect(dataOf(await s.events(runId), "tool_started").find((e) => e.callId === askCall.callId)?.timeoutS).toBe(300);
  });
});

describe("one-at-a-time calls across an agent and its specialist (R-spec-serial)", () => {
  it("lets the asker's serial call and the specialist's take turns, the ask itself running beside them", async () => {
    const { parent, ask, childName, parentName } = await pair();
    script({
      [parentName]: [calls({ name: ask, arguments: { message: "Hold it too." } }, { name: "desk__hold", arguments: { seconds: 1, who: "parent" } }), text("Both held.")],
      [childName]: [call("desk__hold", { seconds: 1, who: "child" }), text("Held.")],
    });
    const runId = await s.run(parent);
    expect((await settled(s, runId)).status).toBe("done");
    const edges = deskLog().map((e) => `${String(e.hold)} ${String(e.edge)}`);
    expect(edges).toHaveLength(4);
    // Each hold ends before the other starts.
    expect([edges.slice(0, 2), edges.slice(2)].every(([a, b]) => a!.split(" ")[0] === b!.split(" ")[0] && a!.endsWith("start") && b!.endsWith("end"))).toBe(true);
  });
});

describe("naming specialists in entries", () => {
  const place = () => ({ tree: s.tree, workspace: workspaceDir(s.dataDir) });
  const model = () => ({ provider: "openai-compatible" as const, model: "loopback", base_url: s.model.url });

  it("saves agent:<name> as the agent's id and refuses an unknown one naming the closest (R-spec-entry)", async () => {
    const { child } = await pair();
    const [row] = await s.database.db.select({ name: agents.name }).from(agents).where(eq(agents.id, child));
    const name = row!.name;
    const made = await createAgent(s.database.db, ANN.id, { name: `Asker ${++n}`, model: model(), tools: [{ entry: `agent:${name.toUpperCase()}` }] }, place());
    expect(made.declaration.tools[0]!.entry).toBe(`agent:${child}`);
    const typo = name.replace("Researcher", "Reseacher");
    await expect(createAgent(s.database.db, ANN.id, { name: `Asker ${++n}`, model: model(), tools: [{ entry: `agent:${typo}` }] }, place())).rejects.toThrow(
      new RegExp(`There is no agent named “${typo}”\\. The closest (is|are) .*${name} \\(agent:${child}\\)`),
    );
  });

  it("refuses a save that closes a loop of specialists, naming it (R-spec-cycle)", async () => {
    const { child, parent } = await pair();
    const names = await s.database.db.select({ id: agents.id, name: agents.name, version: agents.version, declaration: agents.declaration }).from(agents);
    const a = names.find((r) => r.id === parent)!;
    const b = names.find((r) => r.id === child)!;
    const withEntry = (row: typeof b, entry: string) => ({ ...(row.declaration as object), tools: [...((row.declaration as { tools: object[] }).tools ?? []), { entry }] });
    await expect(saveAgent(s.database.db, ANN.id, { id: b.id, baseVersion: b.version, declaration: withEntry(b, `agent:${a.id}`) }, place())).rejects.toThrow(
      `(${b.name} → ${a.name} → ${b.name})`,
    );
    await expect(saveAgent(s.database.db, ANN.id, { id: a.id, baseVersion: a.version, declaration: withEntry(a, `agent:${a.id}`) }, place())).rejects.toThrow(
      `This agent would ask itself (${a.name} → ${a.name})`,
    );
  });

  it("refuses at run time an ask that would close a loop saved around the check (R-spec-cycle)", async () => {
    const { child, parent, ask, childName, parentName } = await pair();
    const [row] = await s.database.db.select().from(agents).where(eq(agents.id, child));
    const declaration = row!.declaration as { tools: object[] };
    // Written past the store, as two saves racing each other could leave it.
    await s.database.db.update(agents).set({ declaration: { ...declaration, tools: [...declaration.tools, { entry: `agent:${parent}` }] } }).where(eq(agents.id, child));
    const back = `ask_triage_${ask.split("_").at(-1)}`;
    script({ [parentName]: [call(ask, { message: "Ask me back." }), text("Fine.")], [childName]: [call(back, { message: "Back to you." }), text("Could not.")] });
    const runId = await s.run(parent);
    const childId = await childRunOf(runId);
    const refusal = dataOf(await s.events(childId), "tool_result")[0]!;
    expect(refusal).toMatchObject({ outcome: "refused" });
    expect(refusal.text).toMatch(/loop of specialists \(Triage \d+ → Researcher \d+ → Triage \d+\)/);
  });
});
