// A run's events folded into what the playground and a trace show: the conversation in order, each tool call as
// one card (approval, question, progress and result joined by callId), the plan, and the run's facts. Pure.
import type { RunStatus } from "@/db/schema";
import type { EventData, IoCard, Outcome, Person, RecoveryAction, RunEventType, Todo } from "@/server/runtime/shapes";
import { ioAsked, ioClosed } from "./io-trace";

export type TraceEvent = { id: string; type: string; data: unknown; at: string };

export type CallState = "pending" | "approval" | "question" | "recovery" | "running" | Outcome;

export type Call = {
  callId: string;
  name: string;
  title: string | null;
  args: Record<string, unknown> | null;
  repaired: boolean;
  state: CallState;
  /** `grantable` false: the call hook asked, so only this call can be approved (no "Always in this run"). */
  approval: { reason: string; grantable: boolean; decision: EventData["approval_decided"]["decision"] | null; by: Person | null; note?: string | null } | null;
  /** `expired`: nobody answered within the question's bound (R-ask-hour). */
  question: { question: string; choices: string[]; answered: boolean; answer: string | null; by: Person | null; expired?: boolean } | null;
  progress: string[];
  result: EventData["tool_result"] | null;
  /** Made by a running tree tool through ctx.system: that tool's call id. Shown inside its card, not on its own. */
  parent: string | null;
  /** The calls this tool made through ctx.system, in order; for a specialist, the calls of its run (R-spec-approvals). */
  children: string[];
  /** The call asked another agent: the run of its own its task runs as (R-spec-run). */
  specialist: { runId: string; agentId: string } | null;
  /** A decision the parent's tool asked through ctx.io: its card, shown inside the parent's (R-tool-io-cards). */
  io?: IoCard | null;
  /** The call may have run, and a person says what happened (R-journal-manual); `action` null until they have. */
  recovery?: { why: EventData["recovery_requested"]["why"]; action: RecoveryAction | null; text?: string; by: Person | null } | null;
};

export type Item =
  | { kind: "user"; key: string; text: string; by: Person }
  | { kind: "assistant"; key: string; text: string; streaming: boolean }
  | { kind: "call"; key: string; callId: string }
  | { kind: "notice"; key: string; text: string; tone: "error" | "info" };

export type Trace = {
  lastEventId: string | null;
  items: Item[];
  calls: Record<string, Call>;
  todos: Todo[];
  model: { provider: string; model: string } | null;
  agentName: string | null;
  tokens: { input: number; output: number };
  status: RunStatus | null;
  error: string | null;
  /** Who stopped the run, when someone did. */
  stoppedBy: Person | null;
  startedAt: string | null;
  endedAt: string | null;
};

export const emptyTrace: Trace = {
  lastEventId: null,
  items: [],
  calls: {},
  todos: [],
  model: null,
  agentName: null,
  tokens: { input: 0, output: 0 },
  status: null,
  error: null,
  stoppedBy: null,
  startedAt: null,
  endedAt: null,
};

/** "17" → [17, 0]; "17.3" → [17, 3]: a delta sorts after the stored event it follows. */
function order(id: string): [number, number] {
  const [stored, delta] = id.split(".");
  return [Number(stored) || 0, Number(delta) || 0];
}

/** Whether an event id was already folded in (a replay after a reconnect repeats some). */
export function seen(lastEventId: string | null, id: string): boolean {
  if (!lastEventId) return false;
  const [a, b] = order(lastEventId);
  const [x, y] = order(id);
  return x < a || (x === a && y <= b);
}

function newCall(callId: string, name = "call"): Call {
  return { callId, name, title: null, args: null, repaired: false, state: "pending", approval: null, question: null, progress: [], result: null, parent: null, children: [], specialist: null };
}

function withCall(trace: Trace, callId: string, key: string, change: (call: Call) => Call): Trace {
  const existing = trace.calls[callId];
  const items = existing ? trace.items : [...trace.items, { kind: "call" as const, key, callId }];
  return { ...trace, items, calls: { ...trace.calls, [callId]: change(existing ?? newCall(callId)) } };
}

const ENDED: RunStatus[] = ["done", "failed", "cancelled"];

/**
 * What the run waits on: an approval while any card asks for one, else a word on a call that may have run
 * (R-journal-manual), else an answer while a question is open; as the runs list says it.
 */
export function waitingFor(trace: Trace): "approval" | "question" | "recovery" | null {
  const states = Object.values(trace.calls).map((call) => call.state);
  return states.includes("approval") ? "approval" : states.includes("recovery") ? "recovery" : states.includes("question") ? "question" : null;
}

export function fold(trace: Trace, event: TraceEvent): Trace {
  if (seen(trace.lastEventId, event.id)) return trace;
  const next = { ...step(trace, event.type as RunEventType, event.data, event.id, event.at), lastEventId: event.id };
  return next.startedAt ? next : { ...next, startedAt: event.at };
}

export function foldAll(events: TraceEvent[], from: Trace = emptyTrace): Trace {
  return events.reduce(fold, from);
}

/** A line when the tools a check() holds back change from one turn to the next (R-check-turn); null when they do not. */
function heldNotice(items: readonly Item[], id: string, held: readonly { name: string; why: string }[] | undefined): Item | null {
  if (!held) return null;
  const last = items.findLast((item) => item.kind === "notice" && item.key.startsWith("held-"));
  const text =
    held.length === 0
      ? "Every tool a check() gates is offered again from this turn."
      : `Not offered on this turn, as its check() says: ${held.map((h) => `${h.name} (${h.why})`).join("; ")}.`;
  if ((!last && held.length === 0) || (last?.kind === "notice" && last.text === text)) return null;
  return { kind: "notice", key: `held-${id}`, text, tone: "info" };
}

function step(trace: Trace, type: RunEventType, raw: unknown, id: string, at: string): Trace {
  switch (type) {
    case "run_started": {
      const data = raw as EventData["run_started"];
      const notices: Item[] = data.problems.map((text, i) => ({ kind: "notice", key: `${id}-p${i}`, text, tone: "info" }));
      return { ...trace, model: data.model, agentName: data.agent.name, status: trace.status ?? "running", items: [...trace.items, ...notices] };
    }
    case "delta": {
      const data = raw as EventData["delta"];
      const last = trace.items.at(-1);
      if (last?.kind === "assistant" && last.streaming) {
        return { ...trace, items: [...trace.items.slice(0, -1), { ...last, text: last.text + data.text }] };
      }
      return { ...trace, items: [...trace.items, { kind: "assistant", key: `a-${id}`, text: data.text, streaming: true }] };
    }
    case "message": {
      const data = raw as EventData["message"];
      if (data.role === "user") return { ...trace, items: [...trace.items, { kind: "user", key: id, text: data.text, by: data.by }] };
      const tokens = { input: trace.tokens.input + data.usage.input, output: trace.tokens.output + data.usage.output };
      const items = trace.items.filter((item) => !(item.kind === "assistant" && item.streaming));
      const held = heldNotice(items, id, data.held);
      if (held) items.push(held);
      if (data.text.trim()) items.push({ kind: "assistant", key: `a-${id}`, text: data.text, streaming: false });
      return { ...trace, tokens, items };
    }
    case "tool_call": {
      const data = raw as EventData["tool_call"];
      const parent = data.parent ? trace.calls[data.parent] : undefined;
      if (data.parent && parent && !trace.calls[data.callId]) {
        // A call a tool made: kept with the calls, listed under its parent's card rather than in the conversation.
        const call = { ...newCall(data.callId, data.name), title: data.title, args: data.args, repaired: data.repaired, parent: data.parent };
        return { ...trace, calls: { ...trace.calls, [data.callId]: call, [data.parent]: { ...parent, children: [...parent.children, data.callId] } } };
      }
      return withCall(trace, data.callId, id, (call) => ({ ...call, name: data.name, title: data.title, args: data.args, repaired: data.repaired }));
    }
    case "approval_requested": {
      const data = raw as EventData["approval_requested"];
      if (data.io && data.parent) {
        const approval = { reason: data.reason, grantable: data.grantable !== false, decision: null, by: null };
        const request: Call = { ...newCall(data.callId, `ctx.io ${data.io.kind}`), title: data.title, args: data.args, parent: data.parent, io: data.io, state: "approval", approval };
        return ioAsked(trace, data.callId, data.parent, request);
      }
      return withCall(trace, data.callId, id, (call) => ({
        ...call,
        title: call.title ?? data.title,
        args: call.args ?? data.args,
        state: call.result ? call.state : "approval",
        approval: { reason: data.reason, grantable: data.grantable !== false, decision: null, by: null },
      }));
    }
    case "approval_decided": {
      const data = raw as EventData["approval_decided"];
      return withCall(trace, data.callId, id, (call) => ({
        ...call,
        state: call.state === "approval" ? "pending" : call.state,
        approval: { reason: call.approval?.reason ?? "", grantable: call.approval?.grantable ?? true, decision: data.decision, by: data.by, note: data.note ?? null },
      }));
    }
    case "question_asked": {
      const data = raw as EventData["question_asked"];
      if (data.io && data.parent) {
        const question = { question: data.question, choices: data.choices, answered: false, answer: null, by: null };
        const request: Call = { ...newCall(data.callId, "ctx.io ask"), parent: data.parent, io: data.io, state: "question", question };
        return ioAsked(trace, data.callId, data.parent, request);
      }
      return withCall(trace, data.callId, id, (call) => ({
        ...call,
        state: call.result ? call.state : "question",
        question: { question: data.question, choices: data.choices, answered: false, answer: null, by: null },
      }));
    }
    case "question_answered": {
      const data = raw as EventData["question_answered"];
      return withCall(trace, data.callId, id, (call) => ({
        ...call,
        state: call.state === "question" ? "running" : call.state,
        question: data.expired
          ? { question: call.question?.question ?? "", choices: call.question?.choices ?? [], answered: true, answer: null, by: null, expired: true }
          : { question: call.question?.question ?? "", choices: call.question?.choices ?? [], answered: true, answer: data.answer, by: data.by },
      }));
    }
    case "recovery_requested": {
      const data = raw as EventData["recovery_requested"];
      return withCall(trace, data.callId, id, (call) => ({ ...call, state: call.result ? call.state : "recovery", recovery: { why: data.why, action: null, by: null } }));
    }
    case "recovery_decided": {
      const data = raw as EventData["recovery_decided"];
      return withCall(trace, data.callId, id, (call) => ({
        ...call,
        state: call.state === "recovery" ? (data.action === "again" ? "running" : "pending") : call.state,
        recovery: { why: call.recovery?.why ?? "restarted", action: data.action, by: data.by, ...(data.text !== undefined ? { text: data.text } : {}) },
      }));
    }
    case "tool_started": {
      const data = raw as EventData["tool_started"];
      return withCall(trace, data.callId, id, (call) => ({ ...call, state: call.question && !call.question.answered ? "question" : "running" }));
    }
    case "progress": {
      const data = raw as EventData["progress"];
      return withCall(trace, data.callId, id, (call) => ({ ...call, progress: [...call.progress, data.message] }));
    }
    case "tool_result": {
      const data = raw as EventData["tool_result"];
      return ioClosed(withCall(trace, data.callId, id, (call) => ({ ...call, state: data.outcome, result: data })), data.callId);
    }
    case "specialist": {
      const data = raw as EventData["specialist"];
      return withCall(trace, data.callId, id, (call) => ({ ...call, specialist: { runId: data.runId, agentId: data.agentId } }));
    }
    case "todos": {
      const data = raw as EventData["todos"];
      return { ...trace, todos: data.todos };
    }
    case "cancelled": {
      const data = raw as EventData["cancelled"];
      // A reply cut short stops streaming where it was.
      const items: Item[] = trace.items.map((item) => (item.kind === "assistant" && item.streaming ? { ...item, streaming: false } : item));
      items.push({ kind: "notice", key: id, text: `Stopped by ${data.by.name ?? "someone"}.`, tone: "info" });
      return { ...trace, items, stoppedBy: data.by };
    }
    case "status": {
      const data = raw as EventData["status"];
      const items: Item[] = data.error ? [...trace.items, { kind: "notice", key: id, text: data.error, tone: "error" }] : trace.items;
      // A run that ends with a call still unanswered leaves it as it stood; the status says why.
      return { ...trace, items, status: data.status, error: data.error, endedAt: ENDED.includes(data.status) ? at : null };
    }
    default:
      return trace;
  }
}
