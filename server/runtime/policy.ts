// The agent's policy applied to one call (docs/rules.md, Timeouts and The loop around a call): the bound (the
// operation's own timeout wins over the policy's default, a module's ARG_TIMEOUT follows the call's argument, an
// interactive wait has none, nothing above 600 s), whether a transient failure is retried (safe and idempotent
// operations only) and the dedupe key. Pure. (The output cap and where a cut result is kept: kept-results.ts.)
import type { AgentDeclaration } from "@/server/agents/declaration";
import { MAX_TIMEOUT_S } from "@/server/host";
import type { RunOperation } from "./catalog";

export type Policy = AgentDeclaration["policy"];

function seconds(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

/** Seconds the call may take once it starts (never counting a wait for approval); null: no bound. */
export function boundOf(op: RunOperation, policy: Policy, args: Record<string, unknown>): number | null {
  if (op.interactive) return null;
  if (op.arg_timeout && seconds(args.timeout)) return Math.min(args.timeout, op.max_timeout, MAX_TIMEOUT_S);
  if (seconds(op.timeout)) return Math.min(op.timeout, MAX_TIMEOUT_S);
  return Math.min(policy.timeout_s, MAX_TIMEOUT_S);
}

/** R-loop-retry: only a safe or idempotent operation is called again after a transient failure. */
export function mayRetry(op: RunOperation): boolean {
  return op.replay === "safe" || op.replay === "idempotent";
}

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.keys(value as object).sort().map((k) => [k, stable((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** Two calls are identical when they name the same operation with the same arguments, in any key order. */
export function dedupeKey(operation: string, args: Record<string, unknown>): string {
  return `${operation} ${JSON.stringify(stable(args))}`;
}
