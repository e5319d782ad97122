// The read side of runs, for /runs and the playground: the list (a waiting run says what it waits on) and one run
// with its whole trace. Nothing here writes. Edit when what a list or a trace shows changes.
import { and, asc, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runEvents, runs as runRows } from "@/db/schema";
import type { EventLog, RunEvent } from "./events";
import { listRuns, runFilterWhere, runSummary, type RunFilter, type RunSummary } from "./store";

/** What a waiting run waits on: an approval, an answer, or a word on a call that may have run (R-journal-manual). */
export type WaitingFor = "approval" | "question" | "recovery";
export type ListedRun = RunSummary & { waitingFor: WaitingFor | null };

/** The events that open and close a wait on the person: all waitOf reads. */
const WAIT_EVENTS = ["approval_requested", "question_asked", "recovery_requested", "approval_decided", "question_answered", "recovery_decided", "tool_result"];

type WaitEvent = { type: string; callId: string | null };

/**
 * What a waiting run waits on, from its wait events in order: an approval while one is open, else a call that may
 * have run while one is, else the person's answer when only questions are open.
 */
export function waitOf(events: readonly WaitEvent[]): WaitingFor {
  const open = new Map<string | null, WaitingFor>();
  for (const { type, callId } of events) {
    if (type === "approval_requested") open.set(callId, "approval");
    else if (type === "question_asked") open.set(callId, "question");
    else if (type === "recovery_requested") open.set(callId, "recovery");
    else {
      open.delete(callId);
      // A tool's ctx.io requests (`<call>/io-<n>`) end with its call, answered or not (R-tool-io-cards).
      if (type === "tool_result") for (const id of open.keys()) if (id?.startsWith(`${callId}/io-`)) open.delete(id);
    }
  }
  const kinds = [...open.values()];
  if (kinds.length > 0 && kinds.every((kind) => kind === "question")) return "question";
  return !kinds.includes("approval") && kinds.includes("recovery") ? "recovery" : "approval";
}

/**
 * The wait events of these runs, in one query however many there are: only each event's type and call id, since
 * a tool_result's text (which may be long) is not needed to know whether the call is still open.
 */
async function waitEvents(db: Db, runIds: string[]): Promise<Map<string, WaitEvent[]>> {
  const byRun = new Map<string, WaitEvent[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return byRun;
  const rows = await db
    .select({ runId: runEvents.runId, type: runEvents.type, callId: sql<string | null>`${runEvents.data}->>'callId'` })
    .from(runEvents)
    .where(and(inArray(runEvents.runId, runIds), inArray(runEvents.type, WAIT_EVENTS)))
    .orderBy(asc(runEvents.id));
  for (const { runId, type, callId } of rows) byRun.get(runId)!.push({ type, callId });
  return byRun;
}

/** Newest first: one query for the runs, and one more for what all the waiting ones among them wait on. */
export async function listWithWaits(db: Db, filter: RunFilter = {}): Promise<ListedRun[]> {
  const runs = await listRuns(db, filter);
  const waits = await waitEvents(
    db,
    runs.filter((run) => run.status === "waiting").map((run) => run.id),
  );
  return runs.map((run) => ({ ...run, waitingFor: run.status === "waiting" ? waitOf(waits.get(run.id)!) : null }));
}

/** One run and every event it stored, in order: what its trace is drawn from. */
export async function runWithEvents(db: Db, log: EventLog, runId: string): Promise<{ run: RunSummary; events: RunEvent[] }> {
  const run = await runSummary(db, runId);
  return { run, events: await log.stored(runId) };
}

/** One agent's runs under a filter, summed: its cost per currency, and how many of its runs have no price. */
export type AgentTotal = {
  agentId: string;
  /** The name its latest run in the filter had. */
  agentName: string;
  runs: number;
  tokensIn: number;
  tokensOut: number;
  costs: { currency: string; amount: string }[];
  unpriced: number;
};

/**
 * Per agent, over every run the filter keeps (not only the 200 the list shows), summed by the database with the
 * runs' own stored costs (R-cost-totals): one row per agent and currency, folded into one total per agent here.
 * Most tokens first.
 */
export async function agentTotals(db: Db, filter: RunFilter = {}): Promise<AgentTotal[]> {
  const rows = await db
    .select({
      agentId: runRows.agentId,
      currency: runRows.priceCurrency,
      agentName: sql<string | null>`(array_agg(${runRows.declaration}->>'name' order by ${runRows.startedAt} desc))[1]`,
      runs: sql<number>`count(*)::int`,
      tokensIn: sql<number>`coalesce(sum(${runRows.tokensIn}), 0)::float8`,
      tokensOut: sql<number>`coalesce(sum(${runRows.tokensOut}), 0)::float8`,
      cost: sql<string | null>`sum(${runRows.cost})::text`,
      latest: sql<number>`extract(epoch from max(${runRows.startedAt}))::float8`,
    })
    .from(runRows)
    .where(runFilterWhere(filter))
    .groupBy(runRows.agentId, runRows.priceCurrency);
  const totals = new Map<string, AgentTotal>();
  const latest = new Map<string, number>();
  for (const row of rows) {
    const total = totals.get(row.agentId) ?? { agentId: row.agentId, agentName: "", runs: 0, tokensIn: 0, tokensOut: 0, costs: [], unpriced: 0 };
    if (row.latest > (latest.get(row.agentId) ?? -Infinity)) {
      latest.set(row.agentId, row.latest);
      total.agentName = row.agentName ?? "";
    }
    total.runs += row.runs;
    total.tokensIn += row.tokensIn;
    total.tokensOut += row.tokensOut;
    if (row.currency === null || row.cost === null) total.unpriced += row.runs;
    else total.costs.push({ currency: row.currency, amount: row.cost });
    totals.set(row.agentId, total);
  }
  return [...totals.values()]
    .map((total) => ({ ...total, costs: total.costs.sort((a, b) => a.currency.localeCompare(b.currency)) }))
    .sort((a, b) => b.tokensIn + b.tokensOut - (a.tokensIn + a.tokensOut) || a.agentName.localeCompare(b.agentName));
}
