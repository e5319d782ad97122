// The embedded database, seen from the studio's thread while PGlite works in a worker thread of its own
// (db/pglite-worker.mjs, R-ops-pglite-thread). It offers what drizzle's PGlite driver and pg-boss's PGlite adapter
// call (query, exec, transaction, listen) with PGlite's own meaning: statements run in the order they are sent, and
// one sent outside a transaction while it is open waits for its end.
import type { Worker } from "node:worker_threads";
import type { Results, QueryOptions, Transaction } from "@electric-sql/pglite";
import { startDatabaseThread } from "./pglite-early.mjs";

type Answer = { id: number; ok?: unknown; error?: ErrorFields } | { listener: number; payload: string } | { ready: boolean; error?: ErrorFields };
type ErrorFields = { name?: string; message: string } & Record<string, string | number | undefined>;
type Pending = { resolve(value: unknown): void; reject(error: Error): void };
type Sent = { op: string; tx?: number } & Record<string, unknown>;

/** PostgreSQL's error as the worker described it: the same message, code and fields as PGlite's own. */
function rebuilt(fields: ErrorFields): Error {
  const error = new Error(fields.message) as Error & Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) if (key !== "message" && value !== undefined) error[key] = value;
  return error;
}

/**
 * The type ids whose values a statement keeps as PostgreSQL's text. A parser is a function, which cannot cross to the
 * worker; drizzle's only ones keep the text as it is, and anything else is refused rather than silently not run.
 */
const kept = new WeakMap<object, number[]>();
function asText(parsers: QueryOptions["parsers"]): number[] | undefined {
  if (!parsers) return undefined;
  let oids = kept.get(parsers);
  if (!oids) {
    oids = Object.entries(parsers).map(([oid, parse]) => {
      if (parse("1999-12-31", Number(oid)) !== "1999-12-31") throw new Error(`A parser for type ${oid} that changes its text cannot run in the database's thread.`);
      return Number(oid);
    });
    kept.set(parsers, oids);
  }
  return oids;
}

function statement(options: QueryOptions | undefined): Record<string, unknown> {
  if (!options) return {};
  if (options.serializers || options.blob || options.paramTypes) throw new Error("Serializers, blobs and parameter types do not cross to the database's thread.");
  return { rowMode: options.rowMode, asText: asText(options.parsers) };
}

export class PGliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private next = 1;
  private ended: Error | null = null;
  readonly waitReady: Promise<void>;

  /** `early`: the thread the server started before Next loaded, taken by the caller (R-boot-db-first). */
  constructor(folder: string, options: { startParams: string[]; pgliteWasmModule?: WebAssembly.Module; early?: Worker }) {
    const { early, ...given } = options;
    // Told the folder now that the caller holds its lock, or that it was taken when it opened the folder already.
    if (early) early.postMessage({ folder, ...given });
    this.worker = early ?? startDatabaseThread({ folder, ...given });
    // Only a statement in flight keeps the process alive, as PGlite in this thread did: a listener alone does not.
    this.worker.unref();
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.worker.on("message", (answer: Answer) => {
        if ("ready" in answer) return answer.ready ? resolve() : reject(rebuilt(answer.error!));
        if ("listener" in answer) return this.listeners.get(answer.listener)?.(answer.payload);
        const waiting = this.pending.get(answer.id);
        if (!waiting) return;
        this.pending.delete(answer.id);
        if (this.pending.size === 0) this.worker.unref();
        if (answer.error) waiting.reject(rebuilt(answer.error));
        else waiting.resolve(answer.ok);
      });
      const stop = (error: Error) => {
        this.ended = error;
        reject(error);
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
      };
      this.worker.on("error", (err) => stop(new Error(`The embedded database stopped: ${err.message}`)));
      this.worker.on("exit", (code) => stop(new Error(`The embedded database's thread ended (exit code ${code}).`)));
    });
  }

  private send<T>(message: Sent): Promise<T> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.next++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    return this.send({ op: "query", sql, params, tx, ...statement(options) });
  }

  exec(sql: string, options?: QueryOptions, tx?: number): Promise<Results[]> {
    return this.send({ op: "exec", sql, tx, ...statement(options) });
  }

  /** Commits what `callback` did when it returns, rolls it back when it throws, as PGlite's transaction does. */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = this.next++;
    await this.send({ op: "begin", tx: id });
    let closed = false;
    const open = () => {
      if (closed) throw new Error("Transaction is closed");
    };
    const tx = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => (open(), this.query<R>(sql, params, options, id)),
      exec: (sql: string, options?: QueryOptions) => (open(), this.exec(sql, options, id)),
      rollback: async () => {
        open();
        closed = true;
        await this.send({ op: "end", tx: id, commit: false });
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await callback(tx);
    } catch (err) {
      if (!closed) {
        closed = true;
        await this.send({ op: "end", tx: id, commit: false });
      }
      throw err;
    }
    if (!closed) {
      closed = true;
      await this.send({ op: "end", tx: id, commit: true });
    }
    return result;
  }

  /** Delivers the channel's notifications until the returned function is called. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = this.next++;
    this.listeners.set(listener, callback);
    await this.send({ op: "listen", channel, listener });
    return async () => {
      this.listeners.delete(listener);
      await this.send({ op: "unlisten", listener });
    };
  }

  /** Closes PostgreSQL cleanly (R-ops-clean-close), then ends the thread. */
  async close(): Promise<void> {
    if (this.ended) return;
    try {
      await this.send({ op: "close" });
    } finally {
      this.ended = new Error("The embedded database is closed.");
      await this.worker.terminate();
    }
  }
}
