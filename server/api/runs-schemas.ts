// The runs API's inputs and answers as zod schemas: the edge checks requests with them (edge.ts) and the OpenAPI
// document is generated from the very same ones (openapi.ts). `.meta({ id })` names a schema in the document's
// components. Edit when a runs route takes or answers something new.
import { z } from "zod";
import { runStatuses, runVias } from "@/db/schema";
import { text } from "@/server/input/text";
import type { RunEventType } from "@/server/runtime";

const RUN_ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
const AGENT_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

export const runParams = z.object({ id: text().uuid().meta({ description: "The run's id, as starting it answered.", example: RUN_ID }) });
export const agentParams = z.object({ id: text().uuid().meta({ description: "The agent's id (its page's address shows it).", example: AGENT_ID }) });

const callId = text().min(1).max(200).meta({ description: "The call's id, from the run's calls or its events.", example: "call_1" });
/** An event id as the stream's `id:` lines carry it: a stored event's number, or "<number>.<n>" for a text delta. */
const eventId = text()
  .max(40)
  .regex(/^\d+(\.\d+)?$/, "An event id is a number such as 42, or 42.3, from an `id:` line of the stream; send one the stream gave you.");

export const messageBody = z
  .object({ message: text().trim().min(1).max(100_000).meta({ description: "What the person says to the agent.", example: "Sort the new files in the inbox." }) })
  .strict()
  .meta({ id: "MessageRequest" });

/** The API's words for the playground's three buttons, mapped onto the runtime's Decision (runs.ts). */
export const apiDecisions = ["approve_once", "approve_always_in_run", "deny"] as const;

export const decisionBody = z
  .object({
    callId,
    decision: z.enum(apiDecisions).meta({
      description:
        "approve_once runs this call; approve_always_in_run also runs every later call of the operation in this run without asking; deny refuses it, and the model is told so. For a tool's own request (an approval whose kind is plan, shell or write): approve_once approves it, deny refuses it, and approve_always_in_run on a write allows every later write of the same path in this run.",
    }),
    note: text()
      .trim()
      .max(10_000)
      .optional()
      .meta({ description: "What the person says beside the decision; a tool that asked for approval of its plan reads it.", example: "Skip step 3." }),
  })
  .strict()
  .meta({ id: "DecisionRequest" });

export const answerBody = z
  .object({
    callId,
    answer: text().max(10_000).nullable().meta({ description: "The reply to the agent's question; null when the person would rather not answer.", example: "The green one." }),
  })
  .strict()
  .meta({ id: "AnswerRequest" });

export const eventsQuery = z.object({
  lastEventId: eventId.optional().meta({ description: "Resume after this event id, for clients that cannot send the Last-Event-ID header." }),
});
export const eventsHeaders = z.object({
  "Last-Event-ID": eventId.optional().meta({ description: "Resume after this event id: the stream sends what followed it, nothing twice." }),
});

const person = z.object({ id: z.string(), name: z.string().nullable() }).meta({ id: "Person" });

const runStatus = z.enum(runStatuses).meta({
  id: "RunStatus",
  description: "running; waiting (for an approval or an answer); done; failed (error says why); cancelled.",
});

export const runStarted = z
  .object({
    runId: z.string().meta({ example: RUN_ID }),
    status: runStatus,
    /** Where to read and follow it. */
    links: z.object({ run: z.string(), events: z.string() }),
  })
  .meta({ id: "RunStarted" });

export const runAccepted = z.object({ runId: z.string(), status: runStatus }).meta({ id: "RunAccepted" });
export const decisionAccepted = z.object({ runId: z.string(), callId: z.string(), decision: z.enum(apiDecisions) }).meta({ id: "DecisionAccepted" });
export const answerAccepted = z.object({ runId: z.string(), callId: z.string() }).meta({ id: "AnswerAccepted" });

const message = z
  .object({
    role: z.enum(["user", "assistant"]),
    text: z.string(),
    at: z.string().meta({ description: "When it was stored (ISO 8601)." }),
    by: person.nullable().meta({ description: "Who wrote a user message (an API key's run names the key); null for the assistant." }),
    callIds: z.array(z.string()).meta({ description: "The calls an assistant message made, in order." }),
  })
  .meta({ id: "Message" });

const outcome = z.enum(["ok", "refused", "failed", "transient", "timeout"]);

const result = z
  .object({
    outcome: outcome.meta({ description: "refused: nothing happened; failed: it ran and went wrong; timeout: it may have partly run." }),
    text: z.string().meta({ description: "What the model was told, with every secret masked as ***, capped as the agent's policy says." }),
    images: z.array(z.object({ mimeType: z.string(), data: z.string() })),
    truncated: z.boolean().meta({ description: "Whether the text was cut (the whole of it stays on the server)." }),
    durationMs: z.number(),
    attempts: z.number(),
  })
  .meta({ id: "CallResult" });

const toolRequest = z
  .object({
    callId: z.string().meta({ description: "The request's own id (`<call>/io-<n>`): decide or answer it with this." }),
    kind: z.enum(["plan", "shell", "write", "ask"]),
    args: z.record(z.string(), z.unknown()).meta({ description: "What its card shows: plan; command and reason; path and summary; question and choices." }),
    decision: z.object({ decision: z.enum(apiDecisions), by: person, note: z.string().nullable() }).nullable(),
    answer: z.object({ answer: z.string().nullable(), by: person }).nullable(),
  })
  .meta({ id: "ToolRequest", description: "A decision the call's tool asked of the person while it ran (ctx.io); neither decided nor answered: still open, or nobody answered." });

const call = z
  .object({
    callId: z.string(),
    name: z.string().meta({ description: "The operation's name as the model called it." }),
    title: z.string().nullable(),
    args: z.record(z.string(), z.unknown()).nullable().meta({ description: "The arguments, null when the model's were not JSON." }),
    parent: z.string().nullable().meta({ description: "A call a tree tool made while it ran: that tool's call id." }),
    state: z.enum(["pending", "waiting_for_approval", "waiting_for_answer", "waiting_for_recovery", "running", "finished"]).meta({
      description: "waiting_for_recovery: the call may have run (the studio stopped while it ran, or it timed out), and waits for someone to say what happened (POST …/recoveries).",
    }),
    decision: z
      .object({ decision: z.enum(apiDecisions), by: person, note: z.string().nullable() })
      .nullable()
      .meta({ description: "The person's decision, where the call asked for one." }),
    result: result.nullable(),
    requests: z.array(toolRequest).meta({ description: "What the tool asked the person while it ran (ctx.io), in order." }),
  })
  .meta({ id: "Call" });

/** What a wait is about: the call itself, or a decision its tool asked while it ran (ctx.io). */
const parent = z.string().nullable().meta({ description: "For a tool's own request (kind other than call): the id of the tool's call that asked it." });

const approval = z
  .object({
    callId: z.string().meta({ description: "The id to decide with: the call's, or the tool's request's own (`<call>/io-<n>`)." }),
    kind: z.enum(["call", "plan", "shell", "write"]).meta({
      description: "call: the call asks before it runs; plan, shell, write: a running tool asks (ctx.io) to go on with its plan, run a command, or write a file.",
    }),
    parent,
    operation: z.string(),
    title: z.string(),
    args: z.record(z.string(), z.unknown()).meta({ description: "The call's arguments; for a tool's request its fields: plan; command and reason; path and summary." }),
    reason: z.string().meta({ description: "Why it asks, in a sentence." }),
    grantable: z.boolean().meta({ description: "false: only approve_once or deny apply (the call hook asked about these arguments, or a tool's plan or command)." }),
  })
  .meta({ id: "WaitingApproval" });

const question = z
  .object({
    callId: z.string(),
    kind: z.enum(["call", "ask"]).meta({ description: "call: the call's own question (ask_user, ctx.ask); ask: a running tool's ctx.io.ask, with an id of its own." }),
    parent,
    question: z.string(),
    choices: z.array(z.string()),
  })
  .meta({ id: "WaitingQuestion" });

const recovery = z
  .object({
    callId: z.string(),
    operation: z.string(),
    title: z.string(),
    args: z.record(z.string(), z.unknown()),
    why: z.enum(["restarted", "timeout"]).meta({ description: "restarted: it was running when the studio stopped; timeout: it timed out. Either way it may have run." }),
  })
  .meta({ id: "WaitingRecovery" });

/** Decimal text of a price per million tokens, as the admin wrote it in Settings → Models (R-cost-price). */
const pricePerMillion = z.string().meta({ description: "A price per million tokens, as decimal text in the currency.", example: "2.50" });

const runCost = z
  .object({
    currency: z.string().meta({ description: "The currency the admin priced the model in, three capital letters, as given; never converted.", example: "USD" }),
    amount: z.string().meta({
      description: "What the run's tokens so far cost, counted by the database: exact decimal text with 12 digits after the point (a string, so no float rounds it).",
      example: "0.002670000000",
    }),
    price: z.object({ input: pricePerMillion, output: pricePerMillion }).meta({ description: "The price per million tokens the run is counted at: the one its model had when the run was made." }),
  })
  .nullable()
  .meta({
    id: "RunCost",
    description: "What the run cost at the price it was made with; null when it has none (an inline model, or a model its connection gives no price), never 0.",
  });

export const runView = z
  .object({
    id: z.string(),
    agent: z.object({ id: z.string(), name: z.string(), version: z.number() }),
    status: runStatus,
    error: z.string().nullable(),
    startedBy: person,
    via: z
      .object({ kind: z.enum(runVias), keyName: z.string().nullable() })
      .meta({ description: "How the run started: the playground, an API key (named as it was then), MCP, a webhook or a schedule." }),
    startedAt: z.string(),
    endedAt: z.string().nullable(),
    tokens: z.object({ input: z.number(), output: z.number() }).meta({ description: "The tokens the model counted for the run so far, sent to it and answered." }),
    cost: runCost,
    messages: z.array(message),
    calls: z.array(call),
    waiting: z.object({ approvals: z.array(approval), questions: z.array(question), recoveries: z.array(recovery) }),
    lastEventId: z.string().nullable().meta({ description: "The newest stored event: follow the events from here to miss nothing." }),
  })
  .meta({ id: "Run" });

const EVENT_TYPES = [
  "run_started", "message", "delta", "tool_call", "approval_requested", "approval_decided", "question_asked",
  "question_answered", "recovery_requested", "recovery_decided", "tool_started", "progress", "tool_result", "todos", "status",
  "cancelled", "specialist",
] as const satisfies readonly RunEventType[];
// A type the runtime adds and this list lacks fails to compile here, so the document never leaves one out.
const everyType: Record<Exclude<RunEventType, (typeof EVENT_TYPES)[number]>, never> = {};
void everyType;

/** One SSE event's `data:` line, as JSON. Its `event:` line is `type`, its `id:` line is `id`. */
export const runEvent = z
  .object({
    id: z.string().meta({ description: "The event's id; a text delta's is the id before it and a dot (42.3), never stored." }),
    type: z.enum(EVENT_TYPES),
    data: z.record(z.string(), z.unknown()),
    at: z.string(),
  })
  .meta({ description: "One event of a run, as each SSE `data:` line carries it; `type` is also the `event:` line, `id` the `id:` line." });
