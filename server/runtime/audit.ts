// The audit row of a call (R-loop-audit): a write, exec or network operation that ran is an action, and writes
// `tool.executed` when it landed or `tool.executed:failed` when it did not; a read, or a call that was refused
// (nothing happened), writes none. The row is masked with the run's secret values.
import { recordAudit } from "@/server/audit/record";
import type { RunOperation } from "./catalog";
import type { Run } from "./run";
import type { Outcome } from "./shapes";

export function isAction(op: RunOperation): boolean {
  return op.risk === "write" || op.risk === "exec" || op.risk === "network";
}

export function auditAction(outcome: Outcome): "tool.executed" | "tool.executed:failed" | null {
  if (outcome === "refused") return null;
  return outcome === "ok" ? "tool.executed" : "tool.executed:failed";
}

export async function auditCall(run: Run, op: RunOperation, callId: string, outcome: Outcome, attempts: number, text: string): Promise<void> {
  const action = auditAction(outcome);
  if (!action || !isAction(op) || attempts === 0 || run.abandoned) return;
  await recordAudit(
    run.deps.db,
    {
      actor: run.startedBy,
      action,
      target: op.name,
      detail: {
        run: run.id,
        call: callId,
        agent: run.agent.id,
        source: op.source,
        risk: op.risk,
        outcome,
        attempts,
        ...(outcome === "ok" ? {} : { error: text.slice(0, 500) }),
      },
    },
    { mask: run.mask },
  );
}
