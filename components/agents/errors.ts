// What a refused agents call says beyond its sentence: its reason (STALE_VERSION, INVALID_AGENT…) and details
// (the problems by path, the version that won), as the server's error formatter sends them.
import { TRPCClientError } from "@trpc/client";
import type { Problem } from "@/server/agents/declaration";
import type { AppRouter } from "@/server/trpc/router";

export function refusalOf(error: unknown): { reason: string | null; details: Record<string, unknown> | null } {
  if (!(error instanceof TRPCClientError)) return { reason: null, details: null };
  const domain = (error as TRPCClientError<AppRouter>).data?.domain;
  return { reason: domain?.reason ?? null, details: (domain?.details as Record<string, unknown> | null) ?? null };
}

/** The problems an INVALID_AGENT refusal names, each with its path; empty for any other error. */
export function problemsOf(error: unknown): Problem[] {
  const { reason, details } = refusalOf(error);
  if (reason !== "INVALID_AGENT") return [];
  const listed = details?.problems;
  return Array.isArray(listed)
    ? listed.filter((p): p is Problem => typeof p === "object" && p !== null && typeof (p as Problem).message === "string")
    : [];
}
