// The shapes of a run's events, as stored in run_events.data and streamed to the playground. Pure, so the browser
// may import the types. Every value is masked before it is stored or streamed.
import type { ModelTool } from "@/server/agents/model-view";
import type { RunStatus } from "@/db/schema";
import type { Image, Outcome } from "@/server/host/protocol";
import type { Todo } from "@/server/system/types";
import type { RunOperation } from "./catalog";

export type { Image, Outcome, Todo };

export type Decision = "once" | "always" | "deny";
/** A step of a run's journal (R-journal-key): the model turn's number, and the call's index in it (0: the turn). */
export type StepKey = { step: number; index: number };

/** What the person says of a call that may have run (R-journal-manual). */
export type RecoveryAction = "again" | "done" | "fail";
/** What the card of a decision a tool asked through ctx.io shows besides its question (R-tool-io-cards). */
export type IoCard =
  | { kind: "ask" }
  | { kind: "plan"; plan: string }
  | { kind: "shell"; command: string; reason: string }
  | { kind: "write"; path: string; summary: string };
/** A client's call of one operation, as a model's call is written: its arguments as JSON text. */
export type ClientCall = { callId: string; name: string; input: string };
export type Person = { id: string; name: string | null };

export type EventData = {
  /** First: what the run offers the model, read once (the playground lists `tools`; `operations` is for resuming). */
  run_started: {
    agent: { id: string; name: string; version: number };
    /** On a connection (R-conn-resolve), its name too: what the run was resolved to when it started. */
    model: { provider: string; model: string; connection?: string };
    tools: ModelTool[];
    operations: RunOperation[];
    withheld: string[];
    /** Entries that offer nothing in this run, in sentences. */
    problems: string[];
    planning: boolean;
    /** A client's own system text, told the model after the agent's instructions (never instead of them). */
    system?: string;
    /** A run that is one call a client made of an operation (an MCP tools/call): no model is asked. */
    clientCall?: ClientCall;
  };
  /**
   * A whole message: the person's, or the model's with the calls it made (input as the model wrote it). `prior`: a
   * turn of the conversation a client sent whole to start the run from, said before this run.
   */
  message:
    | { role: "user"; text: string; by: Person; prior?: true }
    | {
        role: "assistant";
        text: string;
        calls: { callId: string; name: string; input: string }[];
        usage: { input: number; output: number };
        modelMs: number;
        prior?: true;
        /** In a run with tools a check() gates: those held back from the request this message answers, with why (R-check-turn). */
        held?: { name: string; why: string }[];
      };
  /** Streamed only, never stored: the assistant's text as it arrives. */
  delta: { text: string };
  /** One call, in the order the model made them; `operation` is null when the name matched none. */
  tool_call: {
    callId: string;
    /** Made by a running tree tool through ctx.system: the id of that tool's call. */
    parent?: string;
    name: string;
    operation: string | null;
    title: string | null;
    repaired: boolean;
    args: Record<string, unknown> | null;
    risk: string | null;
    concurrent: boolean;
  };
  /**
   * `grantable` false: only this call can be approved (the call hook asked, having looked at its arguments). `io`: a
   * decision a running tool asked through ctx.io, with an id of its own under its call, `parent`.
   */
  approval_requested: { callId: string; operation: string; title: string; args: Record<string, unknown>; reason: string; grantable?: boolean; parent?: string; io?: IoCard };
  /** `note`: what the person wrote beside a plan's decision (ctx.io.request_plan_approval). */
  approval_decided: { callId: string; decision: Decision; by: Person; note?: string };
  /** ask_user: a question for the person, answered through `answer`; `io`, `parent`: asked by a tool through ctx.io. */
  question_asked: { callId: string; question: string; choices: string[]; parent?: string; io?: IoCard };
  /** `expired`: nobody answered within the question's bound (R-ask-hour), so it closed unanswered. */
  question_answered: { callId: string; answer: string | null; by: Person; expired?: true };
  /**
   * A call whose outcome is unknown waits for the person (R-journal-manual): it was running when its studio process
   * stopped (`why` "restarted") or it timed out (`why` "timeout"), and its replay policy is `manual`. `round`: the
   * how-many-th time this call waits so.
   */
  recovery_requested: { callId: string; operation: string; title: string; args: Record<string, unknown>; why: "restarted" | "timeout"; round: number };
  /** The person's word on it: run it again, take `text` as its result, or fail it (with `text` as why). */
  recovery_decided: { callId: string; action: RecoveryAction; text?: string; by: Person; round: number };
  /** The call starts running (after any approval); `timeoutS` null: no bound (an interactive wait). */
  tool_started: { callId: string; operation: string; attempt: number; timeoutS: number | null };
  /** A line while a call runs: the tool's own progress, or a voice line (R-loop-voice). */
  progress: { callId: string; kind: "progress" | "announce" | "heartbeat" | "complete" | "fail"; message: string };
  tool_result: {
    callId: string;
    operation: string | null;
    outcome: Outcome;
    /** What the model is told, masked and capped. */
    text: string;
    images: Image[];
    /** Where a cut result is kept whole, when it was cut. */
    truncated: string | null;
    durationMs: number;
    attempts: number;
    /** The first identical call's result, returned again (policy.dedupe). */
    deduped: boolean;
  };
  todos: { todos: Todo[] };
  status: { status: RunStatus; error: string | null };
  /** The call asked another agent (R-spec-run): the run of its own that the task runs as. */
  specialist: { callId: string; runId: string; agentId: string };
  /** Someone stopped the run: just before its status says cancelled. */
  cancelled: { by: Person };
};

export type RunEventType = keyof EventData;
