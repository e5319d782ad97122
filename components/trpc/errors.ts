// What a failed tRPC call says, read in one place: the server's sentence, its code and reason, the details it
// sent (a conflicting version, the problems by field). server/trpc/init.ts's errorFormatter writes what this reads;
// edit both together.
import { TRPCClientError } from "@trpc/client";
import type { AppRouter } from "@/server/trpc/router";

export type Issue = { path: string; message: string };

export type Refusal = {
  /** tRPC's code (FORBIDDEN, NOT_FOUND, CONFLICT…), or null when no answer came. */
  code: string | null;
  /** The domain's own reason (STALE_VERSION, TREE_HAS_ERRORS…), when a domain error refused the call. */
  reason: string | null;
  details: Record<string, unknown> | null;
  /** Input validation's problems, each at the path of its field. */
  issues: Issue[];
};

const NONE: Refusal = { code: null, reason: null, details: null, issues: [] };

/** Said when no answer arrived (the network dropped, or something other than the studio answered). */
export const NO_ANSWER = "The studio did not answer; check that it is still running, then try again.";

export function refusalOf(error: unknown): Refusal {
  if (!(error instanceof TRPCClientError)) return NONE;
  const data = (error as TRPCClientError<AppRouter>).data;
  if (!data) return NONE;
  return {
    code: data.code ?? null,
    reason: data.domain?.reason ?? null,
    details: (data.domain?.details as Record<string, unknown> | null | undefined) ?? null,
    issues: data.issues ?? [],
  };
}

/** A message cut before any stack trace it carries: a person reads the sentence, never the frames. */
function firstSentences(message: string): string {
  const lines = message.split("\n");
  const stack = lines.findIndex((line) => /^\s+at\s|^Traceback \(most recent call last\)/.test(line));
  return (stack < 0 ? lines : lines.slice(0, stack)).join("\n").trim();
}

/**
 * The sentence to show for a failed call, or null when there is no error. `byCode` replaces the server's sentence
 * for a code where the page can say more (what to ask for, where to go).
 */
export function errorSentence(error: { message: string }, byCode?: Partial<Record<string, string>>): string;
export function errorSentence(error: unknown, byCode?: Partial<Record<string, string>>): string | null;
export function errorSentence(error: unknown, byCode: Partial<Record<string, string>> = {}): string | null {
  if (error === null || error === undefined) return null;
  if (error instanceof TRPCClientError) {
    const { code, issues } = refusalOf(error);
    if (!code) return NO_ANSWER;
    const replaced = byCode[code];
    if (replaced) return replaced;
    // A validation refusal's message is the whole list as JSON; its first problem is the sentence.
    if (issues[0]) return issues[0].message;
  }
  const message = error instanceof Error ? error.message : String(error);
  return firstSentences(message) || NO_ANSWER;
}

/** The problems a refusal lists under `details[key]` (each with its sentence), when its reason is `reason`. */
export function problemsIn<T extends { message: string }>(error: unknown, key: string, reason?: string): T[] {
  const refusal = refusalOf(error);
  if (reason !== undefined && refusal.reason !== reason) return [];
  const listed = refusal.details?.[key];
  return Array.isArray(listed)
    ? listed.filter((p): p is T => typeof p === "object" && p !== null && typeof (p as T).message === "string")
    : [];
}
