// The runs API's handlers: each route's spec (runs-specs.ts) with what it does over the studio's runtime, as the
// playground's procedures do, for the person the key stands for. A key sees only runs of the agents it may use;
// any other run is answered as no such run (R-api-runs-foreign), and every use leaves its audit row (recordKeyUse).
// The app/api/v1 route files export these. Edit when a runs route's behaviour changes.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runs } from "@/db/schema";
import { mayUseAgent, recordKeyUse, type ApiKeyPrincipal } from "@/server/keys/request";
import { studioRuntime, type Decision } from "@/server/runtime";
import { noSuchRun } from "@/server/runtime/store";
import { keyRoute, requireAgent } from "./edge";
import { runEventStream } from "./runs-events";
import type { apiDecisions } from "./runs-schemas";
import { answerSpec, cancelSpec, decideSpec, getRunSpec, runEventsSpec, sendMessageSpec, startRunSpec } from "./runs-specs";
import { viewOf } from "./runs-view";

const DECISION: Record<(typeof apiDecisions)[number], Decision> = { approve_once: "once", approve_always_in_run: "always", deny: "deny" };

/** The run's agent, when the key may use it; otherwise the run does not exist as far as this key can tell. */
async function runOfKey(db: Db, key: ApiKeyPrincipal, runId: string): Promise<{ agentId: string }> {
  const [row] = await db.select({ agentId: runs.agentId }).from(runs).where(eq(runs.id, runId));
  if (!row || !mayUseAgent(key, row.agentId)) throw noSuchRun(runId);
  return row;
}

const links = (runId: string) => ({ run: `/api/v1/runs/${runId}`, events: `/api/v1/runs/${runId}/events` });

export const startRun = keyRoute(startRunSpec, async ({ key, db, params, body }) => {
  requireAgent(key, params.id);
  const { runId } = await (await studioRuntime()).start({
    agentId: params.id,
    message: body.message,
    user: key.who,
    via: { kind: "api", keyId: key.id, keyName: key.name },
  });
  await recordKeyUse(db, key, { action: "run.start", agentId: params.id, runId });
  return Response.json({ runId, status: "running", links: links(runId) }, { status: 201, headers: { location: links(runId).run, "cache-control": "no-store" } });
});

export const getRun = keyRoute(getRunSpec, async ({ key, db, params }) => {
  const { agentId } = await runOfKey(db, key, params.id);
  const { run, events } = await (await studioRuntime()).get(params.id);
  await recordKeyUse(db, key, { action: "run.read", agentId, runId: params.id });
  return viewOf(run, events);
});

export const followRun = keyRoute(runEventsSpec, async ({ request, key, db, params, query, headers }) => {
  const { agentId } = await runOfKey(db, key, params.id);
  // The header a reconnecting EventSource sends wins over the query a client without headers uses.
  const lastEventId = headers["Last-Event-ID"] ?? query.lastEventId ?? null;
  const body = await runEventStream(await studioRuntime(), db, params.id, lastEventId, request.signal);
  await recordKeyUse(db, key, { action: "run.follow", agentId, runId: params.id });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", "x-accel-buffering": "no" },
  });
});

export const continueRun = keyRoute(sendMessageSpec, async ({ key, db, params, body }) => {
  const { agentId } = await runOfKey(db, key, params.id);
  await (await studioRuntime()).send({ runId: params.id, message: body.message, user: key.who });
  await recordKeyUse(db, key, { action: "run.continue", agentId, runId: params.id });
  return { runId: params.id, status: "running" };
});

export const decideCall = keyRoute(decideSpec, async ({ key, db, params, body }) => {
  const { agentId } = await runOfKey(db, key, params.id);
  await (await studioRuntime()).decide(params.id, body.callId, DECISION[body.decision], key.who, body.note);
  await recordKeyUse(db, key, { action: `run.decide.${body.decision}`, agentId, runId: params.id });
  return { runId: params.id, callId: body.callId, decision: body.decision };
});

export const answerQuestion = keyRoute(answerSpec, async ({ key, db, params, body }) => {
  const { agentId } = await runOfKey(db, key, params.id);
  await (await studioRuntime()).answer(params.id, body.callId, body.answer, key.who);
  await recordKeyUse(db, key, { action: "run.answer", agentId, runId: params.id });
  return { runId: params.id, callId: body.callId };
});

export const cancelRun = keyRoute(cancelSpec, async ({ key, db, params }) => {
  const { agentId } = await runOfKey(db, key, params.id);
  await (await studioRuntime()).cancel(params.id, key.who);
  await recordKeyUse(db, key, { action: "run.cancel", agentId, runId: params.id });
  const [row] = await db.select({ status: runs.status }).from(runs).where(eq(runs.id, params.id));
  return { runId: params.id, status: row?.status ?? "cancelled" };
});
