// A run's events: persisted as run_events rows in the order they happen, and streamed to whoever watches the run.
// Appends from every run are written in batches (one INSERT per batch, in order), so a hundred busy runs share a
// few queries rather than queue behind each other's; the journal's writes of those runs ride in the same statements
// (R-journal-in-events). A subscriber resumes from an event id: first the stored
// events after it, then live ones. A message's text deltas are streamed but not stored (the whole message is),
// with ids "<last stored id>.<n>" so resuming from one replays what was stored after that id. What a model or a tool
// wrote is stored escaped where PostgreSQL cannot hold it (a NUL) and read back whole (R-args-nul, db/storable.ts).
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runEvents } from "@/db/schema";
import { Params, rawQuery } from "@/db/raw";
import { fromStored, toStored } from "@/db/storable";
import { Inbox } from "@/server/calls/inbox";
import { journalWriter, resultsUpdate, startsInsert, type JournalOp, type StepResult, type StepStart } from "./journal-writer";
import type { RunEventType } from "./shapes";

export type RunEvent = {
  /** The run_events id as a string, or "<id>.<n>" for a streamed-only delta. */
  id: string;
  runId: string;
  type: RunEventType;
  data: Record<string, unknown>;
  at: string;
};

/**
 * `journal`: the journal write this entry carries into its batch's statement (R-journal-with-event,
 * R-journal-in-events); an entry of type null carries only that, with no event. `urgent`: somebody waits on it
 * before acting, so it cuts the gathering short (R-events-hurry).
 */
type Pending = {
  runId: string;
  type: RunEventType | null;
  data: Record<string, unknown>;
  at: Date;
  journal?: JournalOp;
  urgent: boolean;
  done: (event: RunEvent | Error | null) => void;
};

/** `step`: the journal row the event carries; `result`: the journal result it carries (R-journal-in-events). */
export type AppendOptions = { step?: StepStart; result?: StepResult; urgent?: boolean };

type Listener = (event: RunEvent) => void;

/** Rows per INSERT: an embedded database works on the event loop, so one statement must not hold it for long. */
const BATCH = 200;

/**
 * How long appends wait to share one INSERT. A statement costs the embedded database about as much for one row as
 * for ten, so a run of tools answering in a fraction of a millisecond would otherwise pay a statement per call, more
 * than the call itself; nobody watching a run sees a few milliseconds.
 */
const GATHER_MS = 3;

/**
 * The events a run waits on before it acts: a call is dispatched only once its tool_started is stored
 * (R-journal-started). One of these cuts the gathering short, so the call waits for one statement, not for the
 * gathering as well (R-events-hurry); the events of the moment still share its INSERT.
 */
const URGENT: ReadonlySet<RunEventType> = new Set(["tool_started"]);

/** The stored id an event id names: "17" and "17.3" both resume after 17. */
export function storedIdOf(id: string | null | undefined): number {
  if (!id) return 0;
  const n = Number.parseInt(id, 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * How many of the queued events the next statement takes: up to BATCH, cut before a second journal row of one step
 * key (one statement cannot write the same row twice, and the second must land after the first).
 */
function batchLength(queue: Pending[]): number {
  const keys = new Set<string>();
  for (let i = 0; i < Math.min(queue.length, BATCH); i++) {
    const op = queue[i]!.journal;
    if (!op) continue;
    const key = keyOf(op);
    if (keys.has(key)) return i;
    keys.add(key);
  }
  return Math.min(queue.length, BATCH);
}

const keyOf = (op: { runId: string; key: { step: number; index: number } }) => `${op.runId}/${op.key.step}/${op.key.index}`;

/**
 * The INSERT of a batch's events, as text (R-events-text-statement): what a model or a tool wrote stored escaped where
 * PostgreSQL cannot hold it (R-args-nul).
 */
function eventsInsert(p: Params, events: Pending[]): string {
  const rows = events.map((e) => `(${p.add(e.runId, "uuid")}, ${p.add(e.type, "text")}, ${p.json(toStored(e.data))}, ${p.add(e.at, "timestamptz")})`);
  return `INSERT INTO run_events (run_id, type, data, at) VALUES ${rows.join(", ")} RETURNING id`;
}

/**
 * Serial ids are taken in VALUES order, whatever order RETURNING lists them in. A raw statement's bigserial comes
 * back as text from node-postgres, hence Number.
 */
function withIds(batch: Pending[], rows: { id: number | string }[]): [Pending, number][] {
  const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  return batch.map((p, i) => [p, ids[i]!]);
}

const asError = (reason: unknown) => (reason instanceof Error ? reason : new Error(String(reason)));

export class EventLog {
  private queue: Pending[] = [];
  private writing: Promise<void> | null = null;
  /** Ends the current gathering at the loop's next turn; null when none is under way. */
  private hurry: (() => void) | null = null;
  /** Whether the queue holds an urgent event: the next gathering then waits for one turn of the loop only. */
  private urgent = false;
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Listeners to every run's start and status: what a list of runs needs to move on. */
  private readonly statusListeners = new Set<Listener>();
  /** Per run: the last stored id published, and how many deltas followed it. */
  private readonly last = new Map<string, { id: number; deltas: number }>();
  /** Per run driven elsewhere: the last stored id published here, and the read of newer ones under way. */
  private readonly elsewhere = new Map<string, { id: number; reading: Promise<void> }>();
  /**
   * Told after each batch is stored: per run, its newest id and its newest status (or "running" for a run that
   * started), so other studio processes sharing the database can follow (bus.ts).
   */
  onStored: ((runs: Map<string, { id: number; status: string | null }>) => void) | null = null;

  constructor(private readonly db: Db) {}

  /**
   * Store and publish one event; resolves once it is stored, with the journal row it carries when `step` is given
   * (R-journal-with-event): both in one statement, so neither is stored without the other.
   */
  append(runId: string, type: RunEventType, data: Record<string, unknown>, { step, result, urgent = URGENT.has(type) }: AppendOptions = {}): Promise<RunEvent> {
    const journal: JournalOp | undefined = step ? { kind: "start", ...step } : result && !this.mergedIntoStart(result) ? { kind: "result", ...result } : undefined;
    // A result merged into its queued row is stored with it, before this event: events are stored in order.
    return new Promise((resolve, reject) => {
      this.enqueue({ runId, type, data, at: new Date(), journal, urgent, done: (e) => (e instanceof Error ? reject(e) : resolve(e!)) });
    });
  }

  /**
   * A journal write with no event of its own, carried by the next batch of events (R-journal-in-events); resolves
   * once it is stored. A result whose row still waits here is written with that row, in its statement.
   */
  carry(op: JournalOp): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (e: RunEvent | Error | null) => (e instanceof Error ? reject(e) : resolve());
      const row = op.kind === "result" ? this.mergedIntoStart(op) : null;
      if (row) {
        // Stored when its row is.
        const rowDone = row.done;
        row.done = (e) => (rowDone(e), done(e));
        return;
      }
      this.enqueue({ runId: op.runId, type: null, data: {}, at: op.at, journal: { ...op }, urgent: false, done });
    });
  }

  /**
   * The step's row, when it is still queued here, takes the result: one row written whole, not a row then its result.
   * Answers the queued entry that carries the row, or null.
   */
  private mergedIntoStart(result: StepResult): Pending | null {
    const key = keyOf(result);
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const pending = this.queue[i]!;
      const op = pending.journal;
      if (!op || keyOf(op) !== key) continue;
      if (op.kind !== "start") return null;
      op.result = result.result;
      op.endedAt = result.at;
      return pending;
    }
    return null;
  }

  private enqueue(pending: Pending): void {
    this.queue.push(pending);
    if (pending.urgent) {
      this.urgent = true;
      this.hurry?.();
    }
    this.writing ??= this.write();
  }

  /** Publish without storing: a message's text as it streams. */
  ephemeral(runId: string, type: RunEventType, data: Record<string, unknown>): void {
    const last = this.last.get(runId) ?? { id: 0, deltas: 0 };
    last.deltas++;
    this.last.set(runId, last);
    this.publish({ id: `${last.id}.${last.deltas}`, runId, type, data, at: new Date().toISOString() });
  }

  private async write(): Promise<void> {
    while (this.queue.length > 0) {
      // Let the appends of the next few milliseconds (from every run) join the batch, unless it is full already.
      if (this.queue.length < BATCH) await this.gather();
      const batch = this.queue.splice(0, batchLength(this.queue));
      this.urgent = this.queue.some((p) => p.urgent);
      try {
        const stored = new Map<string, { id: number; status: string | null }>();
        const { events, carried } = await this.insert(batch);
        for (const p of carried) p.done(null);
        for (const [p, id] of events) {
          const event: RunEvent = { id: String(id), runId: p.runId, type: p.type!, data: p.data, at: p.at.toISOString() };
          this.last.set(p.runId, { id, deltas: 0 });
          const status = p.type === "status" ? String(p.data.status) : p.type === "run_started" ? "running" : null;
          stored.set(p.runId, { id, status: status ?? stored.get(p.runId)?.status ?? null });
          this.publish(event);
          p.done(event);
        }
        if (stored.size > 0) this.onStored?.(stored);
      } catch (err) {
        for (const p of batch) p.done(asError(err));
      }
    }
    this.writing = null;
  }

  /**
   * The batch's rows in one INSERT, with the journal writes its entries carry in the same statement (R-journal-with-event,
   * R-journal-in-events): each event stored with its id, in the batch's order. A statement with journal writes that
   * failed is written again as each write on its own and then the events alone: an event whose row is at fault is
   * refused (answered here), while a result the database refuses leaves its event stored, as a result written apart
   * always did (the takeover then reads the event).
   */
  private async insert(batch: Pending[]): Promise<{ events: [Pending, number][]; carried: Pending[] }> {
    const starts = batch.flatMap((p) => (p.journal?.kind === "start" ? [p.journal] : []));
    const results = batch.flatMap((p) => (p.journal?.kind === "result" ? [p.journal] : []));
    let events = batch.filter((p) => p.type !== null);
    let carried = batch.filter((p) => p.type === null);
    if (starts.length + results.length > 0) {
      // Data-modifying WITHs. A batch never holds two writes of one step key (batchLength), so no part reads another's row.
      const p = new Params();
      const parts = [
        ...(starts.length > 0 ? [`steps_started AS (${startsInsert(p, starts)})`] : []),
        ...(results.length > 0 ? [`steps_ended AS (${resultsUpdate(p, results)})`] : []),
      ];
      const main = events.length > 0 ? eventsInsert(p, events) : "SELECT 1";
      try {
        const rows = await rawQuery<{ id: number | string }>(this.db, `WITH ${parts.join(", ")} ${main}`, p);
        return { events: events.length > 0 ? withIds(events, rows) : [], carried };
      } catch {
        const writes = batch.filter((p) => p.journal);
        const own = await Promise.allSettled(writes.map((p) => journalWriter(this.db).push(p.journal!)));
        const refused = new Set<Pending>();
        writes.forEach((p, i) => {
          const outcome = own[i]!;
          if (outcome.status === "fulfilled" || p.journal!.kind === "result") return;
          refused.add(p);
          p.done(asError(outcome.reason));
        });
        events = events.filter((p) => !refused.has(p));
        carried = carried.filter((p) => !refused.has(p));
      }
    }
    if (events.length === 0) return { events: [], carried };
    const p = new Params();
    return { events: withIds(events, await rawQuery<{ id: number | string }>(this.db, eventsInsert(p, events), p)), carried };
  }

  /** GATHER_MS, or one turn of the loop (setImmediate: after its I/O) once an urgent event is queued. */
  private gather(): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.hurry = null;
        resolve();
      };
      this.hurry = () => {
        this.hurry = null;
        clearTimeout(timer);
        setImmediate(done);
      };
      if (this.urgent) this.hurry();
      else timer = setTimeout(done, GATHER_MS);
    });
  }

  /** Resolves once everything appended so far is stored. */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private publish(event: RunEvent): void {
    for (const listener of this.listeners.get(event.runId) ?? []) listener(event);
    if (event.type === "status" || event.type === "run_started") for (const listener of this.statusListeners) listener(event);
  }

  /**
   * Another process stored events of these runs: the ones this process has watchers for are read from the table
   * and published here (in order, once each); a changed status reaches the lists of runs.
   */
  storedElsewhere(runs: [string, number, string | null][]): void {
    for (const [runId, id, status] of runs) {
      if (status !== null) {
        const event: RunEvent = { id: String(id), runId, type: "status", data: { status }, at: new Date().toISOString() };
        for (const listener of this.statusListeners) listener(event);
      }
      if (!this.listeners.has(runId)) continue;
      const known = this.elsewhere.get(runId) ?? { id: 0, reading: Promise.resolve() };
      if (id <= known.id) continue;
      known.reading = known.reading.then(async () => {
        const after = Math.max(known.id, this.last.get(runId)?.id ?? 0);
        if (id <= after) return;
        for (const event of await this.stored(runId, after).catch(() => [])) {
          known.id = Math.max(known.id, Number(event.id));
          this.publish(event);
        }
      });
      this.elsewhere.set(runId, known);
    }
  }

  /** Each run's start and every change of a run's status, live (nothing stored is replayed), until the signal aborts. */
  async *statusChanges(signal: AbortSignal): AsyncGenerator<{ runId: string; status: string | null }> {
    const inbox = new Inbox<RunEvent>(signal);
    this.statusListeners.add(inbox.push);
    try {
      for (let next = await inbox.take(); next; next = await inbox.take()) {
        yield { runId: next.runId, status: next.type === "status" ? String(next.data.status) : "running" };
      }
    } finally {
      this.statusListeners.delete(inbox.push);
      inbox.close();
    }
  }


  listen(runId: string, listener: Listener): () => void {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) {
        this.listeners.delete(runId);
        this.elsewhere.delete(runId);
      }
    };
  }

  /** The run's stored events after an id, in order; only those of `types` when given. */
  async stored(runId: string, after = 0, types?: readonly RunEventType[]): Promise<RunEvent[]> {
    const rows = await this.db
      .select()
      .from(runEvents)
      .where(and(eq(runEvents.runId, runId), gt(runEvents.id, after), types ? inArray(runEvents.type, [...types]) : undefined))
      .orderBy(asc(runEvents.id));
    return rows.map((r) => ({ id: String(r.id), runId: r.runId, type: r.type as RunEventType, data: fromStored(r.data), at: r.at.toISOString() }));
  }

  /**
   * The run's events from this call on, none read back from the table: for the caller that has just started the run
   * in this process, before any of its events could be published (appends wait to share an INSERT), so nothing is
   * missed and its first delta waits on no query. Listening starts at the call, not at the first next(); it ends
   * when the signal aborts or the reader stops.
   */
  live(runId: string, signal: AbortSignal): AsyncGenerator<RunEvent> {
    const inbox = new Inbox<RunEvent>(signal);
    const unlisten = this.listen(runId, inbox.push);
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      unlisten();
      inbox.close();
      signal.removeEventListener("abort", stop);
    };
    // A reader that never starts still stops listening with the signal.
    signal.addEventListener("abort", stop, { once: true });
    return (async function* () {
      try {
        for (let next = await inbox.take(); next; next = await inbox.take()) yield next;
      } finally {
        stop();
      }
    })();
  }

  /** Stored events after `lastEventId`, then live ones, until the signal aborts. */
  async *subscribe(runId: string, lastEventId: string | null | undefined, signal?: AbortSignal): AsyncGenerator<RunEvent> {
    const inbox = new Inbox<RunEvent>(signal);
    const stop = this.listen(runId, inbox.push);
    try {
      let seen = storedIdOf(lastEventId);
      for (const event of await this.stored(runId, seen)) {
        if (signal?.aborted) return;
        seen = Number(event.id);
        yield event;
      }
      // Events another process stores later are read from here on, not from the start.
      const known = this.elsewhere.get(runId);
      if (!known) this.elsewhere.set(runId, { id: seen, reading: Promise.resolve() });
      else known.id = Math.max(known.id, seen);
      for (let next = await inbox.take(); next; next = await inbox.take()) {
        // A live event already replayed from the table (or a delta of a message stored since) is skipped.
        if (storedIdOf(next.id) < seen || (!next.id.includes(".") && Number(next.id) <= seen)) continue;
        if (!next.id.includes(".")) seen = Number(next.id);
        yield next;
      }
    } finally {
      stop();
      inbox.close();
    }
  }
}
