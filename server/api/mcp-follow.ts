// Following one run for an MCP tools/call until it has the answer the client waits for: the result of the client's
// own call (a run of one call), or the agent's last reply (ask_<slug>). While the run waits on a person (an approval,
// an answer, or what happened to a call that may have run, R-journal-manual), the client is asked through
// elicitation where it can be (R-api-mcp-elicit), and the wait is bounded by the key's limit,
// counted over every wait, past which the answer says where the run waits (R-api-mcp-pending). Edit when a run can
// end another way or wait on something new.
import type { EventData, RecoveryAction, Runtime, RunEvent, Who } from "@/server/runtime";
import { paced } from "./run-waits";

/** What the run waits on: an approval of a call, an answer to a question, or a word on a call that may have run. */
export type Wait =
  | { kind: "approval"; callId: string; operation: string; title: string; args: Record<string, unknown>; reason: string }
  | { kind: "question"; callId: string; question: string; choices: string[] }
  | { kind: "recovery"; callId: string; operation: string; title: string; args: Record<string, unknown>; why: EventData["recovery_requested"]["why"] };

/** How the client's person decided; null when they made no choice (the wait stays with the studio). */
export type Asker = {
  approve(wait: Extract<Wait, { kind: "approval" }>, signal: AbortSignal): Promise<"once" | "deny" | null>;
  answer(wait: Extract<Wait, { kind: "question" }>, signal: AbortSignal): Promise<{ answer: string | null } | null>;
  /** Run it again, take `text` as its result, or fail it (`text`: why). */
  recover(wait: Extract<Wait, { kind: "recovery" }>, signal: AbortSignal): Promise<{ action: RecoveryAction; text?: string } | null>;
};

export type Followed =
  | { kind: "result"; result: EventData["tool_result"] }
  | { kind: "reply"; text: string }
  | { kind: "pending"; wait: Wait | null }
  | { kind: "ended"; status: "failed" | "cancelled"; message: string };

export type FollowOptions = {
  runtime: Pick<Runtime, "subscribe" | "decide" | "answer" | "recover">;
  runId: string;
  /** The client's own call, whose result ends the follow; null to follow the run to its reply. */
  callId: string | null;
  /** Who a decision or an answer from the client's person is recorded as: the key. */
  who: Who;
  waitLimitMs: number;
  /** The client's person, where the client can be asked; null otherwise. */
  asker: Asker | null;
  /** Told when the run starts waiting and every `beatMs` while it waits (a progress notification keeps the client). */
  onWait?: (wait: Wait | null) => void;
  beatMs: number;
  signal: AbortSignal;
};

function waitOf(event: RunEvent): Wait | null {
  if (event.type === "approval_requested") {
    const d = event.data as EventData["approval_requested"];
    return { kind: "approval", callId: d.callId, operation: d.operation, title: d.title, args: d.args, reason: d.reason };
  }
  if (event.type === "question_asked") {
    const d = event.data as EventData["question_asked"];
    return { kind: "question", callId: d.callId, question: d.question, choices: d.choices };
  }
  if (event.type === "recovery_requested") {
    const d = event.data as EventData["recovery_requested"];
    return { kind: "recovery", callId: d.callId, operation: d.operation, title: d.title, args: d.args, why: d.why };
  }
  return null;
}

/** The client's person asked about one wait; their choice, if any, given to the run as the key's. */
async function ask(options: FollowOptions, wait: Wait, signal: AbortSignal): Promise<void> {
  const { runtime, runId, who, asker } = options;
  try {
    if (wait.kind === "approval") {
      const decision = await asker!.approve(wait, signal);
      if (decision && !signal.aborted) await runtime.decide(runId, wait.callId, decision, who);
    } else if (wait.kind === "question") {
      const reply = await asker!.answer(wait, signal);
      if (reply && !signal.aborted) await runtime.answer(runId, wait.callId, reply.answer, who);
    } else {
      const said = await asker!.recover(wait, signal);
      if (said && !signal.aborted) await runtime.recover(runId, wait.callId, said.action, who, said.text);
    }
  } catch {
    // A client that could not ask, or a wait decided in the studio meanwhile: the run's own events go on saying how.
  }
}

export async function followRun(options: FollowOptions): Promise<Followed> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal.addEventListener("abort", onAbort);
  const events = await options.runtime.subscribe(options.runId, null, stop.signal);
  const waits = new Map<string, { wait: Wait; asking: AbortController | null }>();
  let reply = "";
  let stoppedBy: string | null = null;
  const first = () => waits.values().next().value?.wait ?? null;

  try {
    for await (const got of paced(events, options)) {
      if (got.kind === "limit") return { kind: "pending", wait: first() };
      if (got.kind === "beat") {
        options.onWait?.(first());
        continue;
      }
      const event = got.event;
      const wait = waitOf(event);
      if (wait) {
        const asking = options.asker ? new AbortController() : null;
        waits.set(wait.callId, { wait, asking });
        if (asking) void ask(options, wait, asking.signal);
        continue;
      }
      switch (event.type) {
        case "message": {
          const m = event.data as EventData["message"];
          if (m.role === "assistant" && !m.prior && m.text.trim() !== "") reply = m.text;
          break;
        }
        case "approval_decided":
        case "question_answered":
        case "recovery_decided":
        case "tool_result": {
          const callId = String(event.data.callId);
          waits.get(callId)?.asking?.abort();
          waits.delete(callId);
          if (event.type === "tool_result" && callId === options.callId) return { kind: "result", result: event.data as EventData["tool_result"] };
          break;
        }
        case "cancelled":
          stoppedBy = (event.data as EventData["cancelled"]).by.name;
          break;
        case "status": {
          const { status, error } = event.data as EventData["status"];
          if (status === "waiting") options.onWait?.(first());
          if (status === "done") {
            if (options.callId === null) return { kind: "reply", text: reply };
            return { kind: "ended", status: "failed", message: "The run ended without answering the call; its trace in the studio says why." };
          }
          if (status === "failed") return { kind: "ended", status, message: error ?? "The run failed; its trace in the studio says where." };
          if (status === "cancelled") return { kind: "ended", status, message: `The run was stopped${stoppedBy ? ` by ${stoppedBy}` : ""} before it finished.` };
          break;
        }
      }
    }
    // The client went away: nobody reads an answer now, and the run goes on.
    return { kind: "ended", status: "failed", message: "The client stopped waiting for this call." };
  } finally {
    for (const { asking } of waits.values()) asking?.abort();
    options.signal.removeEventListener("abort", onAbort);
    stop.abort();
    await events.return(undefined);
  }
}
