// POST /api/hooks/{agent}/{token} (app/api/hooks): a program starts a run of the agent with its request's body as the
// message. In order: the Origin check (a request without the studio's cookie is exempt, its token being its
// credential: R-trigger-webhook-origin), the body limit, the webhook by its agent and token (404 alike for every
// miss), its rate, the message; then the run, answered 202 at once or, with ?wait=1, once it has replied.
import type { Db } from "@/db/client";
import { recordAudit } from "@/server/audit/record";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { DomainError } from "@/server/errors";
import { reportUnexpected } from "@/server/error-report";
import { withinBodyLimit } from "@/server/http/body";
import { crossSiteRefusal } from "@/server/http/origin";
import { studioRuntime, type Runtime } from "@/server/runtime";
import { BadHookBody, hookMessage } from "./body";
import { takeHookRequest } from "./rate";
import { waitForReply, type Outcome } from "./reply";
import { activeRunAs } from "./run-as";
import { hookAt, touchWebhook, type LiveHook } from "./webhooks";

const NO_STORE = { "cache-control": "no-store" };

function refused(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { code, message } }, { status, headers: { ...NO_STORE, ...headers } });
}

/** One sentence for an unknown agent, an agent without a webhook, a wrong or old token and a stopped trigger. */
function notHere(): Response {
  return refused(
    404,
    "NO_SUCH_WEBHOOK",
    "There is no webhook at this address: check that it was copied whole; an address stops working once its webhook is rotated or removed.",
  );
}

/** The agent and token from /api/hooks/{agent}/{token}, or null for any other shape of path. */
function addressOf(url: string): { agentId: string; token: string } | null {
  const parts = new URL(url).pathname.replace(/\/+$/, "").split("/");
  if (parts.length !== 5 || parts[1] !== "api" || parts[2] !== "hooks") return null;
  try {
    return { agentId: decodeURIComponent(parts[3]!), token: decodeURIComponent(parts[4]!) };
  } catch {
    return null;
  }
}

function waitOf(url: string): boolean | null {
  const wait = new URL(url).searchParams.get("wait");
  if (wait === null || wait === "0") return false;
  return wait === "1" ? true : null;
}

const links = (runId: string) => ({ run: `/runs/${runId}` });

function answered(runId: string, outcome: Outcome, missing: string[]): Response {
  const body = { runId, ...outcome, links: links(runId), ...(missing.length > 0 ? { missing } : {}) };
  const ended = outcome.status === "done" || outcome.status === "failed" || outcome.status === "cancelled";
  return Response.json(body, { status: ended ? 200 : 202, headers: NO_STORE });
}

async function started(db: Db, runtime: Runtime, hook: LiveHook, who: { id: string; name: string }, message: string): Promise<string> {
  const { runId } = await runtime.start({ agentId: hook.agentId, message, user: who, via: { kind: "webhook" } });
  await Promise.all([
    touchWebhook(db, hook.id),
    recordAudit(db, { actor: `webhook:${hook.id}`, action: "webhook.run", target: runId, detail: { agentId: hook.agentId, runId, runAs: who.id } }),
  ]);
  return runId;
}

export async function hookRoute(incoming: Request): Promise<Response> {
  try {
    const foreign = crossSiteRefusal(incoming, env().baseUrl);
    if (foreign) return refused(403, "FROM_ANOTHER_SITE", foreign);
    const bounded = await withinBodyLimit(incoming);
    if (bounded.refusal !== null) return refused(413, "BODY_TOO_LARGE", bounded.refusal);
    const request = bounded.request;
    const address = addressOf(request.url);
    if (!address) return notHere();
    const db = await getDb();
    const hook = await hookAt(db, address.agentId, address.token);
    // A trigger whose person can no longer sign in starts nothing (R-trigger-run-as), and says so no differently.
    const who = hook ? await activeRunAs(db, hook.runAs) : null;
    if (!hook || !who) return notHere();
    const wait = await takeHookRequest(hook.id);
    if (wait !== null) {
      const seconds = `${wait} second${wait === 1 ? "" : "s"}`;
      return refused(429, "WEBHOOK_RATE_LIMITED", `This webhook has taken its requests for this minute; try again in ${seconds}.`, { "retry-after": String(wait) });
    }
    const waits = waitOf(request.url);
    if (waits === null) return refused(400, "INVALID_INPUT", "wait is 1 to wait for the agent's reply, or left out to be answered at once; send one of them.");
    const bytes = new Uint8Array(await request.arrayBuffer());
    const { message, missing } = hookMessage(bytes, request.headers.get("content-type"), hook.template);
    const runtime = await studioRuntime();
    const runId = await started(db, runtime, hook, who, message);
    const outcome: Outcome = waits ? await waitForReply(runtime, runId, undefined, request.signal) : { status: "running" };
    return answered(runId, outcome, missing);
  } catch (error) {
    if (error instanceof BadHookBody) return refused(error.code === "MESSAGE_TOO_LONG" ? 413 : 400, error.code, error.message);
    // The agent deleted between the webhook's read and its run.
    if (error instanceof DomainError && error.kind === "NOT_FOUND") return notHere();
    const { id, sentence } = reportUnexpected(error, "webhook POST /api/hooks");
    return Response.json({ error: { code: "INTERNAL", message: sentence, errorId: id } }, { status: 500, headers: NO_STORE });
  }
}
