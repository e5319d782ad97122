// The journal's writes, committed in groups (R-journal-group): every run's step rows and results asked for while
// the previous group was being written go out together, the starts in one INSERT … ON CONFLICT and the results in
// one UPDATE … FROM VALUES, in the order they were asked for, and each caller is answered once its own statement
// has ended. Under a hundred busy runs the journal then costs a few statements per tick instead of four per step;
// alone, a write waits for nothing but the loop's next turn. A run's own rows and results ride in its events'
// statements instead (events.ts, R-journal-in-events); this writer takes the journal writes of a batch of events that
// failed, one at a time, and a step written on its own (journalStart).
import type { Db } from "@/db/client";
import { Params, rawQuery } from "@/db/raw";
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

/** The INSERT of starting steps, not yet run: sent alone here, or a part of the events' statement (R-events-text-statement). */
export function startsInsert(p: Params, starts: StepStart[]): string {
  const rows = starts.map(
    (o) =>
      `(${p.add(o.runId, "uuid")}, ${p.add(o.key.step, "integer")}, ${p.add(o.key.index, "integer")}, ${p.add(o.callId, "text")}, ` +
      `${p.add(o.operation, "text")}, ${p.add(o.at, "timestamptz")}, ${p.json(o.result)}, ${p.add(o.endedAt, "timestamptz")})`,
  );
  // A second dispatch of the same key counts one attempt more on the same row (R-journal-key), its result anew.
  return (
    `INSERT INTO run_steps (run_id, step, call_index, call_id, operation, started_at, result, ended_at) VALUES ${rows.join(", ")} ` +
    "ON CONFLICT (run_id, step, call_index) DO UPDATE SET attempts = run_steps.attempts + 1, result = excluded.result, " +
    "ended_at = excluded.ended_at, started_at = excluded.started_at"
  );
}

/** The UPDATE of answered steps: sent alone here, or a part of the events' statement (R-journal-in-events). */
export function resultsUpdate(p: Params, results: StepResult[]): string {
  const rows = results.map(
    (o) => `(${p.add(o.runId, "uuid")}, ${p.add(o.key.step, "integer")}, ${p.add(o.key.index, "integer")}, ${p.json(o.result)}, ${p.add(o.at, "timestamptz")})`,
  );
  return (
    `UPDATE run_steps SET result = v.result, ended_at = v.ended_at FROM (VALUES ${rows.join(", ")}) AS v(run_id, step, call_index, result, ended_at) ` +
    "WHERE run_steps.run_id = v.run_id AND run_steps.step = v.step AND run_steps.call_index = v.call_index"
  );
}

/** One group's statement: its ops are all starts or all results (groups). */
async function write(db: Db, ops: Op[]): Promise<void> {
  const p = new Params();
  await rawQuery(db, ops[0]!.kind === "start" ? startsInsert(p, ops as Start[]) : resultsUpdate(p, ops as Result[]), p);
}

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
