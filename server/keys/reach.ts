// Which API keys can reach one agent, for the agent page's "Use from code" (R-use-from-code-keys): any signed-in
// builder may ask, so the answer names each key by its name and prefix, what it may do and when it expires, and
// never its hash or value. Edit when a key gains a limit that decides whether it reaches an agent.
import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents, apiKeys, keyScopes, type KeyScope } from "@/db/schema";
import { DomainError } from "@/server/errors";

export type ReachingKey = {
  id: string;
  name: string;
  prefix: string;
  scopes: KeyScope[];
  /** Whether the key reaches every agent, or this one by name among those it lists. */
  reach: "all" | "listed";
  expiresAt: Date | null;
};

/** The live, unexpired keys that may use `agentId` (every agent, or it among theirs), by name. */
export async function keysReaching(db: Db, agentId: string, now = new Date()): Promise<ReachingKey[]> {
  const [agent] = await db.select({ id: agents.id }).from(agents).where(eq(agents.id, agentId));
  if (!agent) throw new DomainError("NOT_FOUND", "NO_SUCH_AGENT", "There is no such agent; it may have been deleted meanwhile.", { id: agentId });
  const rows = await db
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, scopes: apiKeys.scopes, agents: apiKeys.agents, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .where(and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now))))
    .orderBy(asc(sql`lower(${apiKeys.name})`));
  return rows.flatMap((row) => {
    const reach = row.agents === "all" ? "all" : row.agents.includes(agentId) ? "listed" : null;
    if (reach === null) return [];
    // Scopes in the one order the studio lists them, whatever order the row kept.
    const scopes = keyScopes.filter((scope) => row.scopes.includes(scope));
    return [{ id: row.id, name: row.name, prefix: row.prefix, scopes, reach, expiresAt: row.expiresAt }];
  });
}
