// The journal's writes, committed in groups (R-journal-group): every run's step rows and results asked for while
// the previous group was being written go out together, the starts in one INSERT … ON CONFLICT and the results in
// one UPDATE … FROM VALUES, in the order they were asked for, and each caller is answered once its own statement
// has ended. Under a hundred busy runs the journal then costs a few statements per tick instead of four per step;
// alone, a write waits for nothing but the loop's next turn. A run's own rows and results ride in its events'
// statements instead (events.ts, R-journal-in-events); this writer takes the journal writes of a batch of events that
// failed, one at a time, and a step written on its own (journalStart).
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runSteps } from "@/db/schema";
import type { StepKey } from "./shapes";

/**
 * A step's row as it starts: what a call's tool_started can carry into its own statement (R-journal-with-event).
 * `result`/`endedAt`: a step that answered before its row was written is written whole (R-journal-in-events).
 */
export type StepStart = { runId: string; key: StepKey; callId: string | null; operation: string | null; at: Date; result?: Record<string, unknown>; endedAt?: Date };
/** A step's result: what the model read of it, written onto its row. */
export type StepResult = { runId: string; key: StepKey; result: Record<string, unknown>; at: Date };

type Start = { kind: "start" } & StepStart;
type Result = { kind: "result" } & StepResult;
/** A write of the journal, through this writer or carried by the run's events (events.ts, R-journal-in-events). */
export type JournalOp = Start | Result;
type Op = JournalOp & { done: (error: Error | null) => void };

/** Rows per statement, well under PostgreSQL's limit on a statement's parameters. */
const GROUP = 200;

const keyOf = (op: Op) => `${op.runId}/${op.key.step}/${op.key.index}`;

/**
 * The ops in order, cut where the kind changes, where a group is full, or where a step key comes again: one
 * statement cannot insert or update the same row twice, and the second write of a key must land after the first.
 */
function groups(ops: Op[]): Op[][] {
  const out: Op[][] = [];
  let group: Op[] = [];
  let keys = new Set<string>();
  for (const op of ops) {
    const key = keyOf(op);
    if (group.length > 0 && (group[0]!.kind !== op.kind || group.length >= GROUP || keys.has(key))) {
      out.push(group);
      group = [];
      keys = new Set();
    }
    group.push(op);
    keys.add(key);
  }
  if (group.length > 0) out.push(group);
  return out;
}

/** The INSERT of starting steps, not yet run: awaited alone here, or a part of the events' statement. */
export function startsInsert(db: Db, starts: StepStart[]) {
  return db
    .insert(runSteps)
    .values(
      starts.map((o) => ({
        runId: o.runId,
        step: o.key.step,
        callIndex: o.key.index,
        callId: o.callId,
        operation: o.operation,
        startedAt: o.at,
        result: o.result ?? null,
        endedAt: o.endedAt ?? null,
      })),
    )
    .onConflictDoUpdate({
      target: [runSteps.runId, runSteps.step, runSteps.callIndex],
      // A second dispatch of the same key counts one attempt more on the same row (R-journal-key), its result anew.
      set: { attempts: sql`${runSteps.attempts} + 1`, result: sql`excluded.result`, endedAt: sql`excluded.ended_at`, startedAt: sql`excluded.started_at` },
    });
}

/** The UPDATE of answered steps: awaited alone here, or a part of the events' statement (R-journal-in-events). */
export function resultsUpdate(results: StepResult[]) {
  const rows = results.map((o) => sql`(${o.runId}::uuid, ${o.key.step}::integer, ${o.key.index}::integer, ${JSON.stringify(o.result)}::jsonb, ${o.at.toISOString()}::timestamptz)`);
  return sql`UPDATE ${runSteps} SET result = v.result, ended_at = v.ended_at
    FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(run_id, step, call_index, result, ended_at)
    WHERE ${runSteps}.run_id = v.run_id AND ${runSteps}.step = v.step AND ${runSteps}.call_index = v.call_index`;
}

async function writeStarts(db: Db, ops: Start[]): Promise<void> {
  await startsInsert(db, ops);
}

async function writeResults(db: Db, ops: Result[]): Promise<void> {
  await db.execute(resultsUpdate(ops));
}

const write = (db: Db, ops: Op[]) => (ops[0]!.kind === "start" ? writeStarts(db, ops as Start[]) : writeResults(db, ops as Result[]));

class JournalWriter {
  private queue: Op[] = [];
  private writing: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  /** The latest write asked for, settled either way: groups are written in order, so all before it are too. */
  private last: Promise<void> = Promise.resolve();

  /** Resolves once every write asked for so far has been written (or refused), however busy the writer stays. */
  flushed(): Promise<void> {
    return this.last;
  }

  push(op: JournalOp): Promise<void> {
    const written = new Promise<void>((resolve, reject) => {
      this.queue.push({ ...op, done: (error) => (error ? reject(error) : resolve()) });
      this.writing ??= this.drain();
    });
    this.last = written.then(
      () => undefined,
      () => undefined,
    );
    return written;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      // The writes asked for in this turn of the loop, from every run, join the group.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const batch = this.queue.splice(0, this.queue.length);
      for (const group of groups(batch)) {
        try {
          await write(this.db, group);
          for (const op of group) op.done(null);
        } catch (err) {
          // A group that failed is written again one op at a time, so only the write at fault is refused.
          for (const op of group) {
            try {
              await write(this.db, [op]);
              op.done(null);
            } catch (own) {
              op.done(own instanceof Error ? own : new Error(String(own ?? err)));
            }
          }
        }
      }
    }
    this.writing = null;
  }
}

/** One writer per database: every run of a process shares its groups. */
const writers = new WeakMap<Db, JournalWriter>();

export function journalWriter(db: Db): JournalWriter {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = new JournalWriter(db)));
  return writer;
}
