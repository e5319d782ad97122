// Whom a trigger's runs start as (R-trigger-run-as): the person who made the trigger or last changed it, so a run no
// one started by hand still names someone answerable for it, and a trigger stops with its person's account.
// Also the one shape of a refused trigger edit, each fault at its field. Edit when a trigger may run as another.
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents, user } from "@/db/schema";
import { DomainError } from "@/server/errors";

export type RunAs = { id: string; name: string | null; active: boolean };

export type TriggerProblem = { path: string; message: string };

/** The person behind `userId`, and whether their account may still start runs (it exists and is not disabled). */
export async function runAsOf(db: Db, userId: string): Promise<RunAs> {
  const [row] = await db.select({ name: user.name, disabled: user.disabled }).from(user).where(eq(user.id, userId));
  return { id: userId, name: row?.name ?? null, active: !!row && !row.disabled };
}

/** An active person's id and name, as the runtime records who started a run; null when the account cannot. */
export async function activeRunAs(db: Db, userId: string): Promise<{ id: string; name: string } | null> {
  const [row] = await db.select({ name: user.name }).from(user).where(and(eq(user.id, userId), eq(user.disabled, false)));
  return row ? { id: userId, name: row.name } : null;
}

export function invalidTrigger(problems: TriggerProblem[], what: string): DomainError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
  return new DomainError("BAD_REQUEST", "INVALID_TRIGGER", `The ${what} was not saved: ${first.message}${more}`, { problems });
}

/** The agent's name, or the refusal every trigger procedure answers for an agent that is gone. */
export async function agentNamed(db: Db, agentId: string): Promise<string> {
  const [row] = await db.select({ name: agents.name }).from(agents).where(eq(agents.id, agentId));
  if (!row) throw new DomainError("NOT_FOUND", "NO_SUCH_AGENT", "There is no such agent; it may have been deleted meanwhile.", { id: agentId });
  return row.name;
}
