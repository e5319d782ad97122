// The studio's errors are values: a code a client can branch on, a sentence a person can act on,
// and optional details (a conflicting version, the fields at fault). tRPC turns them into answers.
export type ErrorKind = "BAD_REQUEST" | "NOT_FOUND" | "CONFLICT" | "FORBIDDEN" | "UNAUTHORIZED" | "PRECONDITION_FAILED";

/** Marks a DomainError across bundles: the instrumentation bundle and a route's each have their own copy of this
 * class, so `instanceof` fails for an error the runtime (made at start-up) throws into a route. */
const BRAND = Symbol.for("quiver.DomainError");

export class DomainError extends Error {
  readonly [BRAND] = true;

  /** Whether `value` is a DomainError, whichever bundle made it. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  constructor(
    /** How the API answers it (and which HTTP status that is). */
    readonly kind: ErrorKind,
    /** The specific reason, for code that branches on it: "CONFLICT", "BAD_NAME"… */
    readonly reason: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
