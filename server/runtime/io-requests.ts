// What a running tool asks the person through ctx.io (docs/rules.md, "Asking the person from a tool"): each request
// is a wait of the run with an id of its own under the tool's call, shown as an approval card (plan, shell, write) or
// a question (ask) on that call's card, and decided like any other (the playground, tRPC, the runs API). The call's
// clock stands still meanwhile, as for ctx.ask (the host client's wait). A write allowed "always" holds for its path
// for the rest of the run, read back from the run's events, which are its record. Edit when a kind of decision is added.
import path from "node:path";
import type { IoRequest } from "@/server/host";
import type { PreparedCall, Run, WaitAnswer } from "./run";
import type { RunEvent } from "./events";
import type { Decision, EventData, IoCard } from "./shapes";
import { RunStopped } from "./stopped";

/** What the tool is told: the safe answer of its kind when nobody answered (R-tool-io-nobody). */
function reply(request: IoRequest, answer: WaitAnswer | null): Record<string, unknown> {
  if (request.kind === "ask") return { answer: answer && "answer" in answer ? answer.answer : null };
  const decision: Decision = answer && "decision" in answer ? answer.decision : "deny";
  if (request.kind === "write") return { decision };
  if (request.kind === "plan") return { approved: decision !== "deny", note: answer && "decision" in answer ? (answer.note ?? "") : "" };
  return { approved: decision !== "deny" };
}

/** One path however it was written: `out/./a.md` and `out//a.md` are `out/a.md` (R-tool-io-write-always). */
export function samePath(written: string): string {
  const normal = path.posix.normalize(written.trim());
  return normal.length > 1 ? normal.replace(/\/+$/, "") : normal;
}

/** The paths allowed "always" so far in a run, from its approval events in order. */
export function alwaysPaths(events: readonly Pick<RunEvent, "type" | "data">[]): Set<string> {
  const asked = new Map<string, string>();
  const always = new Set<string>();
  for (const event of events) {
    if (event.type === "approval_requested") {
      const data = event.data as EventData["approval_requested"];
      if (data.io?.kind === "write") asked.set(data.callId, samePath(data.io.path));
    } else if (event.type === "approval_decided") {
      const data = event.data as EventData["approval_decided"];
      const written = asked.get(data.callId);
      if (written !== undefined && data.decision === "always") always.add(written);
    }
  }
  return always;
}

/** Per run in memory: its "always" paths, read from its stored events once (a resumed run is a new Run). */
const granted = new WeakMap<Run, Promise<Set<string>>>();

function pathsOf(run: Run): Promise<Set<string>> {
  let paths = granted.get(run);
  if (!paths) {
    paths = run.deps.log.stored(run.id, 0, ["approval_requested", "approval_decided"]).then(alwaysPaths);
    granted.set(run, paths);
  }
  return paths;
}

/** An id for the request, unique in the run, under its tool's call. */
function ioId(run: Run, parent: string): string {
  let n = 1;
  while (run.callIds.has(`${parent}/io-${n}`)) n++;
  const id = `${parent}/io-${n}`;
  run.callIds.add(id);
  return id;
}

function card(request: IoRequest): IoCard {
  switch (request.kind) {
    case "ask":
      return { kind: "ask" };
    case "plan":
      return { kind: "plan", plan: request.plan };
    case "shell":
      return { kind: "shell", command: request.command, reason: request.reason };
    case "write":
      return { kind: "write", path: samePath(request.path), summary: request.summary };
  }
}

/** The approval's words for whoever reads it without the card (the chat and MCP endpoints, an API client). */
function approvalOf(request: Exclude<IoRequest, { kind: "ask" }>, tool: string): { title: string; reason: string; args: Record<string, unknown> } {
  if (request.kind === "plan") return { title: "Approve the plan", reason: `${tool} asks you to approve its plan before it goes on.`, args: { plan: request.plan } };
  if (request.kind === "shell") {
    return { title: "Run a shell command", reason: `${tool} asks to run a command${request.reason ? `: ${request.reason}` : "."}`, args: { command: request.command, reason: request.reason } };
  }
  const file = samePath(request.path);
  return { title: "Write a file", reason: `${tool} asks to write ${file}${request.summary ? `: ${request.summary}` : "."}`, args: { path: file, summary: request.summary } };
}

/** Waits for the person; null when nobody will answer (the run stopped, or the studio is going away). */
async function waited(run: Run, id: string, kind: "approval" | "question"): Promise<WaitAnswer | null> {
  try {
    return await run.wait(id, kind);
  } catch (err) {
    if (err instanceof RunStopped) return null;
    throw err;
  }
}

/** A tool's ctx.io request, answered once the person decides (R-tool-io-cards), or at once where nobody can. */
export async function answerIoRequest(run: Run, parent: PreparedCall, request: IoRequest): Promise<Record<string, unknown>> {
  const say = (message: string) => void run.emit("progress", { callId: parent.callId, kind: "progress", message });
  const tool = parent.op?.title ?? parent.name;
  if (request.kind === "write" && (await pathsOf(run)).has(samePath(request.path))) {
    say(`Writing ${samePath(request.path)} was allowed for the rest of this run, so it was not asked again.`);
    return { decision: "always" };
  }
  if (!run.deps.settings.canAsk) {
    say(request.kind === "ask" ? "Nobody can answer in this run, so the tool's question went unanswered." : "Nobody can approve in this run, so the tool was told no.");
    return reply(request, null);
  }
  const id = ioId(run, parent.callId);
  const operation = parent.op?.name ?? parent.name;
  if (request.kind === "ask") {
    await run.emit("question_asked", { callId: id, parent: parent.callId, question: request.question, choices: request.options, io: card(request) });
    const answer = await waited(run, id, "question");
    if (answer && "answer" in answer) await run.emit("question_answered", { callId: id, answer: answer.answer, by: answer.by });
    return reply(request, answer);
  }
  const words = approvalOf(request, tool);
  await run.emit("approval_requested", { callId: id, parent: parent.callId, operation, ...words, grantable: request.kind === "write", io: card(request) });
  const answer = await waited(run, id, "approval");
  if (!answer || !("decision" in answer)) return reply(request, null);
  // Only a write's "always" means more than this once (R-tool-io-write-always).
  const decision: Decision = request.kind === "write" || answer.decision === "deny" ? answer.decision : "once";
  const note = request.kind === "plan" && answer.note ? answer.note : undefined;
  await run.emit("approval_decided", { callId: id, decision, by: answer.by, ...(note ? { note } : {}) });
  if (request.kind === "write" && decision === "always") (await pathsOf(run)).add(samePath(request.path));
  return reply(request, { ...answer, decision });
}
