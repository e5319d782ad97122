// A statement sent to the driver as text and parameters, past drizzle's builder. Only for the few statements the run
// loop sends for every step, whose building cost more of the studio's thread than the database's answer
// (R-events-text-statement); everything else goes through drizzle.
import { DrizzleQueryError } from "drizzle-orm/errors";
import type { Db } from "./client";

type Queryable = { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * Numbers parameters as they are added. Each is sent as text and cast in the statement, so both drivers (PGlite's
 * and node-postgres) take it the same way whatever its type.
 */
export class Params {
  readonly values: (string | null)[] = [];

  /** `$n::text::type` for the value, null for SQL's NULL. */
  add(value: string | number | Date | null | undefined, type: string): string {
    this.values.push(value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value));
    return `$${this.values.length}::text::${type}`;
  }

  /** A JSON value as jsonb: SQL's NULL for null or undefined, as drizzle's jsonb columns write it. */
  json(value: unknown): string {
    return this.add(value === null || value === undefined ? null : JSON.stringify(value), "jsonb");
  }
}

/**
 * The rows the statement answers, as objects, from either driver. A failure is drizzle's own error for a failed
 * query, as every other statement's is, so the server log shows it alike and without its parameters (R-error-id).
 */
export async function rawQuery<Row>(db: Db, text: string, params: Params): Promise<Row[]> {
  const client = (db as unknown as { $client: Queryable }).$client;
  try {
    const result = await client.query(text, params.values);
    return result.rows as Row[];
  } catch (err) {
    throw new DrizzleQueryError(text, params.values, err as Error);
  }
}
