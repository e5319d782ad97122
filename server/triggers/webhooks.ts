// An agent's webhook as the Triggers section keeps it: made, rotated (the old address stops on its next request, as
// every request reads the stored hash; R-trigger-webhook-rotate), its template set, removed; and found again for a
// request by its agent and token. The token leaves this module only in what create and rotate return, once.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhooks } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import { agentNamed, invalidTrigger, runAsOf, type RunAs } from "./run-as";
import { templateProblem } from "./template";
import { newHookToken, tokenMatches } from "./token";

export type WebhookView = {
  agentId: string;
  /** The live token's first characters, to tell addresses apart; never the token. */
  hint: string;
  template: string | null;
  createdAt: Date;
  rotatedAt: Date | null;
  lastUsedAt: Date | null;
  runAs: RunAs;
};

/** A webhook made or rotated: its view and, this once, the path that holds the token. */
export type WebhookMade = { webhook: WebhookView; path: string };

export const hookPath = (agentId: string, token: string) => `/api/hooks/${agentId}/${token}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function rowOf(db: Db, agentId: string) {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.agentId, agentId));
  return row;
}

async function viewOf(db: Db, row: typeof webhooks.$inferSelect): Promise<WebhookView> {
  const { agentId, hint, template, createdAt, rotatedAt, lastUsedAt } = row;
  return { agentId, hint, template, createdAt, rotatedAt, lastUsedAt, runAs: await runAsOf(db, row.runAs) };
}

function noWebhook(agentId: string): DomainError {
  return new DomainError("NOT_FOUND", "NO_WEBHOOK", "This agent has no webhook; make one first.", { agentId });
}

/** An empty template is none: the body itself becomes the message. */
function checkedTemplate(template: string | null | undefined): string | null {
  const value = template?.trim() ? template : null;
  const problem = value === null ? null : templateProblem(value);
  if (problem) throw invalidTrigger([{ path: "template", message: problem }], "webhook's template");
  return value;
}

export async function getWebhook(db: Db, agentId: string): Promise<WebhookView | null> {
  await agentNamed(db, agentId);
  const row = await rowOf(db, agentId);
  return row ? viewOf(db, row) : null;
}

export async function createWebhook(db: Db, actor: string, agentId: string, template?: string | null): Promise<WebhookMade> {
  await agentNamed(db, agentId);
  const checked = checkedTemplate(template);
  const made = newHookToken();
  const [row] = await db
    .insert(webhooks)
    .values({ agentId, hash: made.hash, hint: made.hint, template: checked, runAs: actor })
    .onConflictDoNothing({ target: webhooks.agentId })
    .returning();
  if (!row) throw new DomainError("CONFLICT", "WEBHOOK_EXISTS", "This agent has a webhook already; Rotate gives it a new address.", { agentId });
  await recordAudit(db, { actor, action: "webhook.created", target: agentId, detail: { agentId, hint: made.hint } });
  return { webhook: await viewOf(db, row), path: hookPath(agentId, made.token) };
}

/** A new token; the old one is refused from its next request on. Runs then start as whoever rotated it. */
export async function rotateWebhook(db: Db, actor: string, agentId: string): Promise<WebhookMade> {
  await agentNamed(db, agentId);
  const made = newHookToken();
  const [row] = await db
    .update(webhooks)
    .set({ hash: made.hash, hint: made.hint, runAs: actor, rotatedAt: new Date() })
    .where(eq(webhooks.agentId, agentId))
    .returning();
  if (!row) throw noWebhook(agentId);
  await recordAudit(db, { actor, action: "webhook.rotated", target: agentId, detail: { agentId, hint: made.hint } });
  return { webhook: await viewOf(db, row), path: hookPath(agentId, made.token) };
}

export async function setWebhookTemplate(db: Db, actor: string, agentId: string, template: string | null): Promise<WebhookView> {
  await agentNamed(db, agentId);
  const checked = checkedTemplate(template);
  const [row] = await db.update(webhooks).set({ template: checked }).where(eq(webhooks.agentId, agentId)).returning();
  if (!row) throw noWebhook(agentId);
  await recordAudit(db, { actor, action: "webhook.template", target: agentId, detail: { agentId, template: checked !== null } });
  return viewOf(db, row);
}

export async function removeWebhook(db: Db, actor: string, agentId: string): Promise<{ agentId: string }> {
  const [row] = await db.delete(webhooks).where(eq(webhooks.agentId, agentId)).returning({ id: webhooks.id });
  if (!row) throw noWebhook(agentId);
  await recordAudit(db, { actor, action: "webhook.removed", target: agentId, detail: { agentId } });
  return { agentId };
}

export type LiveHook = { id: string; agentId: string; template: string | null; runAs: string };

/**
 * The webhook at this address, or null for an unknown agent, an agent without a webhook and a wrong token alike:
 * each costs one read and one comparison (an agent id of the wrong shape, which no agent has, skips the read), so
 * the answer tells none of them apart (R-trigger-webhook-token).
 */
export async function hookAt(db: Db, agentId: string, token: string): Promise<LiveHook | null> {
  const row = UUID.test(agentId) ? await rowOf(db, agentId) : undefined;
  if (!tokenMatches(token, row?.hash ?? null) || !row) return null;
  return { id: row.id, agentId: row.agentId, template: row.template, runAs: row.runAs };
}

/** Last used is kept to the request. */
export async function touchWebhook(db: Db, id: string): Promise<void> {
  await db.update(webhooks).set({ lastUsedAt: new Date() }).where(eq(webhooks.id, id));
}
