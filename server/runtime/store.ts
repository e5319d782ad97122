// Run rows: created when a run starts (with the price it is counted at), their status and tokens kept as the loop
// goes, listed and read for the playground and /runs. The steps themselves are run_events (events.ts).
import { randomUUID } from "node:crypto";
import { and, desc, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import type { PgInsertValue } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { agents, runs, user, type RunStatus, type RunVia } from "@/db/schema";
import type { AgentDeclaration } from "@/server/agents/declaration";
import { declarationOf } from "@/server/agents/store";
import { DomainError } from "@/server/errors";
import { priceAtStart } from "@/server/models/prices";
import { gatheringPer } from "./gathering";

export { declarationOf };

export type RunRow = typeof runs.$inferSelect;

export type RunSummary = {
  id: string;
  agentId: string;
  agentName: string;
  agentVersion: number;
  startedBy: string;
  /** The person's name; for a run through a key, "API key NAME"; null once the account is gone. */
  startedByName: string | null;
  via: RunVia;
  viaKeyId: string | null;
  viaKeyName: string | null;
  /** A specialist's run: the run that asked it and that run's call (R-spec-run). */
  parentRunId: string | null;
  parentCallId: string | null;
  /** The published tree version it uses; null for the working tree (R-version-pinned). */
  treeVersion: number | null;
  status: RunStatus;
  error: string | null;
  tokensIn: number;
  tokensOut: number;
  /** The price it is counted at, micro-units per million tokens, fixed when it was made; null: no price (R-cost-fixed). */
  price: RunPrice | null;
  /** What it cost so far in the price's currency, as exact decimal text; null when it has no price. */
  cost: string | null;
  startedAt: Date;
  endedAt: Date | null;
};

export type RunPrice = { currency: string; input: number; output: number };

export function noSuchRun(id: string): DomainError {
  return new DomainError("NOT_FOUND", "NO_SUCH_RUN", "There is no such run; it may have been deleted with its agent.", { id });
}

/** The agent as it stands now: what a new run starts from. */
export async function agentForRun(db: Db, agentId: string): Promise<{ declaration: AgentDeclaration; version: number }> {
  const row = await agentReadsOf(db).give(agentId);
  if (!row) throw new DomainError("NOT_FOUND", "NO_SUCH_AGENT", "There is no such agent; it may have been deleted meanwhile.", { id: agentId });
  return { declaration: declarationOf(row.declaration), version: row.version };
}

/** How a run started (R-key-via): the studio's playground unless said otherwise, and through which key. */
export type Via = { kind: RunVia; keyId?: string; keyName?: string };

export async function insertRun(
  db: Db,
  values: {
    agentId: string;
    agentVersion: number;
    declaration: AgentDeclaration;
    startedBy: string;
    via?: Via;
    parent?: { runId: string; callId: string };
    /** The published tree version it uses, or an SQL value choosing it as the row is written (R-version-pinned). */
    treeVersion?: number | null | SQL<number | null>;
    /** The run queue whose processes drive it (R-queue-sweep); the studio's own when not given. */
    queue?: string;
  },
): Promise<RunRow> {
  const { via, parent, ...rest } = values;
  const row = {
    ...rest,
    via: via?.kind ?? "playground",
    viaKeyId: via?.keyId ?? null,
    viaKeyName: via?.keyName ?? null,
    parentRunId: parent?.runId ?? null,
    parentCallId: parent?.callId ?? null,
    // Read from the connection in this same statement (R-cost-fixed): later price changes never reach this row.
    ...priceAtStart(values.declaration.model),
  };
  return insertsOf(db).give({ ...row, id: randomUUID() });
}

/** Each database's agents read for the runs of the moment, in one SELECT (R-ops-db-gathered). */
const agentReadsOf = gatheringPer((db: Db) => async (ids: string[]) => {
  const rows = await db
    .select({ id: agents.id, declaration: agents.declaration, version: agents.version })
    .from(agents)
    .where(inArray(agents.id, [...new Set(ids)]));
  const found = new Map(rows.map((r) => [r.id, { declaration: r.declaration, version: r.version }]));
  return (id: string) => found.get(id);
});

type RunInsert = PgInsertValue<typeof runs> & { id: string };

/** Each database's run rows of the moment, written in one INSERT (R-ops-db-gathered); each row carries its own id to be found by. */
const insertsOf = gatheringPer((db: Db) => async (rows: RunInsert[]) => {
  const written = new Map((await db.insert(runs).values(rows).returning()).map((r) => [r.id, r]));
  return (row: RunInsert) => written.get(row.id)!;
});

export async function runRow(db: Db, id: string): Promise<RunRow> {
  const [row] = await db.select().from(runs).where(eq(runs.id, id));
  if (!row) throw noSuchRun(id);
  return row;
}

export async function updateRun(db: Db, id: string, set: Partial<Pick<RunRow, "status" | "error" | "tokensIn" | "tokensOut" | "endedAt">>): Promise<void> {
  await db.update(runs).set(set).where(eq(runs.id, id));
}

const summary = {
  id: runs.id,
  agentId: runs.agentId,
  agentVersion: runs.agentVersion,
  declaration: runs.declaration,
  startedBy: runs.startedBy,
  startedByName: user.name,
  via: runs.via,
  viaKeyId: runs.viaKeyId,
  viaKeyName: runs.viaKeyName,
  parentRunId: runs.parentRunId,
  parentCallId: runs.parentCallId,
  treeVersion: runs.treeVersion,
  status: runs.status,
  error: runs.error,
  tokensIn: runs.tokensIn,
  tokensOut: runs.tokensOut,
  priceCurrency: runs.priceCurrency,
  priceInput: runs.priceInput,
  priceOutput: runs.priceOutput,
  cost: runs.cost,
  startedAt: runs.startedAt,
  endedAt: runs.endedAt,
};

type SummaryRow = { declaration: Record<string, unknown>; priceCurrency: string | null; priceInput: number | null; priceOutput: number | null } & Omit<RunSummary, "agentName" | "price">;

function summaryOf(row: SummaryRow): RunSummary {
  const { declaration, priceCurrency, priceInput, priceOutput, ...rest } = row;
  const price = priceCurrency !== null && priceInput !== null && priceOutput !== null ? { currency: priceCurrency, input: priceInput, output: priceOutput } : null;
  // A key is no account: its run is started by the key, named as it was then.
  const startedByName = rest.startedByName ?? (rest.viaKeyName !== null ? `API key ${rest.viaKeyName}` : null);
  return { ...rest, price, startedByName, agentName: typeof declaration.name === "string" ? declaration.name : "" };
}

/** How far back /runs looks: the last day, week or 30 days; every run when not given. */
export const runPeriods = ["day", "week", "month"] as const;
export type RunPeriod = (typeof runPeriods)[number];
const PERIOD_SQL: Record<RunPeriod, SQL> = { day: sql`now() - interval '1 day'`, week: sql`now() - interval '7 days'`, month: sql`now() - interval '30 days'` };

export type RunFilter = { agentId?: string; status?: RunStatus; via?: RunVia; period?: RunPeriod };

/** The runs a filter keeps, as a WHERE clause: the list and its totals per agent read the same runs (R-cost-totals). */
export function runFilterWhere(filter: RunFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.agentId) where.push(eq(runs.agentId, filter.agentId));
  if (filter.status) where.push(eq(runs.status, filter.status));
  if (filter.via) where.push(eq(runs.via, filter.via));
  if (filter.period) where.push(gte(runs.startedAt, PERIOD_SQL[filter.period]));
  return where.length ? and(...where) : undefined;
}

/** Newest first, at most 200. */
export async function listRuns(db: Db, filter: RunFilter = {}): Promise<RunSummary[]> {
  const rows = await db
    .select(summary)
    .from(runs)
    .leftJoin(user, eq(user.id, runs.startedBy))
    .where(runFilterWhere(filter))
    .orderBy(desc(runs.startedAt))
    .limit(200);
  return rows.map(summaryOf);
}

export async function runSummary(db: Db, id: string): Promise<RunSummary> {
  const [row] = await db.select(summary).from(runs).leftJoin(user, eq(user.id, runs.startedBy)).where(eq(runs.id, id));
  if (!row) throw noSuchRun(id);
  return summaryOf(row);
}

export async function runsWithStatus(db: Db, status: RunStatus): Promise<string[]> {
  return (await db.select({ id: runs.id }).from(runs).where(eq(runs.status, status))).map((r) => r.id);
}
