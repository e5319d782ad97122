// The runs API's routes as specs: method, path, the key scope each needs, its schemas and its words. The edge checks
// requests by them (runs.ts) and the OpenAPI document lists them (openapi.ts), so the two cannot drift apart.
// Edit when a runs route is added or changes what it takes.
import type { RouteSpec } from "./edge";
import { recoverSpec } from "./runs-recovery";
import {
  agentParams,
  answerAccepted,
  answerBody,
  decisionAccepted,
  decisionBody,
  eventsHeaders,
  eventsQuery,
  messageBody,
  runAccepted,
  runEvent,
  runParams,
  runStarted,
  runView,
} from "./runs-schemas";

const RUN = "0f8fad5b-d9cb-469f-a165-70867728950e";
const AGENT = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const notFound = { status: 404, description: "No such run, or a run of an agent this key may not use." } as const;
const busy = { status: 409, description: "The run is not in a state that takes this (still working, already ended, or not waiting on this call)." } as const;

export const startRunSpec = {
  method: "post",
  path: "/api/v1/agents/{id}/runs",
  scope: "run",
  operationId: "startRun",
  tag: "Agents",
  summary: "Start a run",
  description:
    "Starts a run of the agent as it stands, answering the message. Answers at once with the run's id; follow its events to see it work. The run is listed in the studio's Runs as started through this key.",
  params: agentParams,
  body: messageBody,
  ok: { status: 201, description: "The run started.", schema: runStarted },
  errors: [{ status: 404, description: "No such agent." }],
  example: { path: `/api/v1/agents/${AGENT}/runs`, body: { message: "Sort the new files in the inbox." } },
} as const satisfies RouteSpec;

export const getRunSpec = {
  method: "get",
  path: "/api/v1/runs/{id}",
  scope: "read",
  operationId: "getRun",
  tag: "Runs",
  summary: "Read a run",
  description: "The run as it stands: its status, messages, calls with their results (secrets masked as stored), and what it waits for.",
  params: runParams,
  ok: { status: 200, description: "The run.", schema: runView },
  errors: [notFound],
  example: { path: `/api/v1/runs/${RUN}` },
} as const satisfies RouteSpec;

export const runEventsSpec = {
  method: "get",
  path: "/api/v1/runs/{id}/events",
  scope: "read",
  operationId: "followRun",
  tag: "Runs",
  summary: "Follow a run's events",
  description:
    "Server-sent events: every event the run stored so far (or those after Last-Event-ID), then live ones, each as `id:`, `event:` (its type) and `data:` (a RunEvent as JSON). Comments keep the connection open while the run waits. The stream ends when the run ends (done, failed or cancelled); reconnect with the last id to miss nothing and get nothing twice.",
  params: runParams,
  query: eventsQuery,
  headers: eventsHeaders,
  ok: { status: 200, description: "The event stream.", schema: runEvent, contentType: "text/event-stream" },
  errors: [notFound],
  example: { path: `/api/v1/runs/${RUN}/events` },
} as const satisfies RouteSpec;

export const sendMessageSpec = {
  method: "post",
  path: "/api/v1/runs/{id}/messages",
  scope: "run",
  operationId: "continueRun",
  tag: "Runs",
  summary: "Continue a run",
  description: "Another message in the run's conversation, once the run has finished its answer (done, failed or cancelled). The run goes on in the background.",
  params: runParams,
  body: messageBody,
  ok: { status: 202, description: "The run goes on.", schema: runAccepted },
  errors: [notFound, busy],
  example: { path: `/api/v1/runs/${RUN}/messages`, body: { message: "Now the ones from yesterday." } },
} as const satisfies RouteSpec;

export const decideSpec = {
  method: "post",
  path: "/api/v1/runs/{id}/decisions",
  scope: "decide",
  operationId: "decideCall",
  tag: "Runs",
  summary: "Decide a call waiting for approval",
  description: "Approves or denies a call the run waits on (an operation set to Ask me), as the playground's buttons do.",
  params: runParams,
  body: decisionBody,
  ok: { status: 200, description: "Decided; the run goes on.", schema: decisionAccepted },
  errors: [notFound, busy],
  example: { path: `/api/v1/runs/${RUN}/decisions`, body: { callId: "call_1", decision: "approve_once" } },
} as const satisfies RouteSpec;

export const answerSpec = {
  method: "post",
  path: "/api/v1/runs/{id}/answers",
  scope: "decide",
  operationId: "answerQuestion",
  tag: "Runs",
  summary: "Answer the agent's question",
  description: "The reply to a question the run waits on (ask_user, or a tool asking the person).",
  params: runParams,
  body: answerBody,
  ok: { status: 200, description: "Answered; the run goes on.", schema: answerAccepted },
  errors: [notFound, busy],
  example: { path: `/api/v1/runs/${RUN}/answers`, body: { callId: "call_2", answer: "The green one." } },
} as const satisfies RouteSpec;

export const cancelSpec = {
  method: "post",
  path: "/api/v1/runs/{id}/cancel",
  scope: "run",
  operationId: "cancelRun",
  tag: "Runs",
  summary: "Stop a run",
  description: "Stops the run where it stands: a call under way is told to stop, and the run ends as cancelled.",
  params: runParams,
  ok: { status: 202, description: "Stopping; the events end with the status cancelled.", schema: runAccepted },
  errors: [notFound, { status: 409, description: "The run has already ended." }],
  example: { path: `/api/v1/runs/${RUN}/cancel` },
} as const satisfies RouteSpec;

export const RUNS_ROUTES: readonly RouteSpec[] = [startRunSpec, getRunSpec, runEventsSpec, sendMessageSpec, decideSpec, answerSpec, recoverSpec, cancelSpec];
