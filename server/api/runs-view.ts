// A run as the runs API answers it: its stored events folded into messages, calls (each with its state, decision and
// result, masked as stored) and what it waits on now. Pure, over what Runtime.get reads. Edit when an event type
// changes what a program reading a run should see.
import type { z } from "zod";
import { decimalOf } from "@/server/models/price-words";
import type { Decision, EventData, RunEvent, RunSummary } from "@/server/runtime";
import type { apiDecisions, runView } from "./runs-schemas";

export type RunView = z.output<typeof runView>;
type CallView = RunView["calls"][number];
type Approval = RunView["waiting"]["approvals"][number];
type Question = RunView["waiting"]["questions"][number];
type Recovery = RunView["waiting"]["recoveries"][number];
type ToolRequest = CallView["requests"][number];

/** The runtime's decision in the API's words. */
export const API_DECISION: Record<Decision, (typeof apiDecisions)[number]> = {
  once: "approve_once",
  always: "approve_always_in_run",
  deny: "deny",
};

const data = <T extends keyof EventData>(event: RunEvent) => event.data as EventData[T];

export function viewOf(run: RunSummary, events: readonly RunEvent[]): RunView {
  const messages: RunView["messages"] = [];
  const calls = new Map<string, CallView>();
  const approvals = new Map<string, Approval>();
  const questions = new Map<string, Question>();
  const recoveries = new Map<string, Recovery>();
  const requests = new Map<string, ToolRequest>();
  /** A tool's ctx.io request, kept on its call (R-tool-io-cards). */
  const request = (parent: string | undefined, made: ToolRequest) => {
    if (!parent) return;
    requests.set(made.callId, made);
    calls.get(parent)?.requests.push(made);
  };
  let agent = { id: run.agentId, name: run.agentName, version: run.agentVersion };
  let lastEventId: string | null = null;
  const closeWaits = (callId: string) => {
    approvals.delete(callId);
    questions.delete(callId);
    recoveries.delete(callId);
    // A tool's own requests (ctx.io) end with its call, answered or not.
    for (const [id, wait] of [...approvals, ...questions]) if (wait.parent === callId) closeWaits(id);
  };
  for (const event of events) {
    lastEventId = event.id;
    switch (event.type) {
      case "run_started":
        agent = data<"run_started">(event).agent;
        break;
      case "message": {
        const m = data<"message">(event);
        if (m.role === "user") messages.push({ role: "user", text: m.text, at: event.at, by: m.by, callIds: [] });
        else messages.push({ role: "assistant", text: m.text, at: event.at, by: null, callIds: m.calls.map((c) => c.callId) });
        break;
      }
      case "tool_call": {
        const c = data<"tool_call">(event);
        calls.set(c.callId, { callId: c.callId, name: c.name, title: c.title, args: c.args, parent: c.parent ?? null, state: "pending", decision: null, result: null, requests: [] });
        break;
      }
      case "approval_requested": {
        const a = data<"approval_requested">(event);
        const kind = a.io && a.io.kind !== "ask" ? a.io.kind : "call";
        approvals.set(a.callId, { callId: a.callId, kind, parent: a.parent ?? null, operation: a.operation, title: a.title, args: a.args, reason: a.reason, grantable: a.grantable !== false });
        if (kind !== "call") request(a.parent, { callId: a.callId, kind, args: a.args, decision: null, answer: null });
        setState(calls, a.callId, "waiting_for_approval");
        break;
      }
      case "approval_decided": {
        const d = data<"approval_decided">(event);
        closeWaits(d.callId);
        const call = calls.get(d.callId);
        const decision = { decision: API_DECISION[d.decision], by: d.by, note: d.note ?? null };
        if (call) call.decision = decision;
        const asked = requests.get(d.callId);
        if (asked) asked.decision = decision;
        setState(calls, d.callId, "pending");
        break;
      }
      case "question_asked": {
        const q = data<"question_asked">(event);
        questions.set(q.callId, { callId: q.callId, kind: q.io ? "ask" : "call", parent: q.parent ?? null, question: q.question, choices: q.choices });
        if (q.io) request(q.parent, { callId: q.callId, kind: "ask", args: { question: q.question, choices: q.choices }, decision: null, answer: null });
        setState(calls, q.callId, "waiting_for_answer");
        break;
      }
      case "question_answered": {
        const a = data<"question_answered">(event);
        closeWaits(a.callId);
        setState(calls, a.callId, "running");
        const asked = requests.get(a.callId);
        if (asked) asked.answer = { answer: a.answer, by: a.by };
        break;
      }
      case "tool_started":
        setState(calls, data<"tool_started">(event).callId, "running");
        break;
      case "recovery_requested": {
        const r = data<"recovery_requested">(event);
        recoveries.set(r.callId, { callId: r.callId, operation: r.operation, title: r.title, args: r.args, why: r.why });
        setState(calls, r.callId, "waiting_for_recovery");
        break;
      }
      case "recovery_decided": {
        const d = data<"recovery_decided">(event);
        closeWaits(d.callId);
        setState(calls, d.callId, d.action === "again" ? "running" : "pending");
        break;
      }
      case "tool_result": {
        const r = data<"tool_result">(event);
        closeWaits(r.callId);
        const call = calls.get(r.callId);
        if (call) {
          call.state = "finished";
          call.result = { outcome: r.outcome, text: r.text, images: r.images, truncated: r.truncated !== null, durationMs: r.durationMs, attempts: r.attempts };
        }
        break;
      }
    }
  }
  const waiting = run.status === "waiting";
  return {
    id: run.id,
    agent,
    status: run.status,
    error: run.error,
    startedBy: { id: run.startedBy, name: run.startedByName },
    via: { kind: run.via, keyName: run.viaKeyName },
    startedAt: run.startedAt.toISOString(),
    endedAt: run.endedAt?.toISOString() ?? null,
    tokens: { input: run.tokensIn, output: run.tokensOut },
    // The row's own stored cost, counted from the same tokens at the run's fixed price (R-cost-api).
    cost: run.price && run.cost !== null ? { currency: run.price.currency, amount: run.cost, price: { input: decimalOf(run.price.input), output: decimalOf(run.price.output) } } : null,
    messages,
    calls: [...calls.values()],
    // A run that ended (stopped, or restarted away) waits on nothing, whatever it had asked.
    waiting: { approvals: waiting ? [...approvals.values()] : [], questions: waiting ? [...questions.values()] : [], recoveries: waiting ? [...recoveries.values()] : [] },
    lastEventId,
  };
}

function setState(calls: Map<string, CallView>, callId: string, state: CallView["state"]): void {
  const call = calls.get(callId);
  if (call && call.state !== "finished") call.state = state;
}
