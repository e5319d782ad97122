// The studio's errors are values: a code a client can branch on, a sentence a person can act on,
// and optional details (a conflicting version, the fields at fault). tRPC turns them into answers.
export type ErrorKind = "BAD_REQUEST" | "NOT_FOUND" | "CONFLICT" | "FORBIDDEN" | "UNAUTHORIZED" | "PRECONDITION_FAILED";

export class DomainError extends Error {
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
