// What the agents API names when it refuses a declaration: the problems (INVALID_AGENT), each at its path.
import { problemsIn } from "@/components/trpc/errors";
import type { Problem } from "@/server/agents/declaration";

/** The problems an INVALID_AGENT refusal names, each with its path; empty for any other error. */
export function problemsOf(error: unknown): Problem[] {
  return problemsIn<Problem>(error, "problems", "INVALID_AGENT");
}
