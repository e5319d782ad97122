// A run's status as a small pill: running, waiting for approval or for an answer, done, failed, stopped.
import type { RunStatus } from "@/db/schema";
import { STATUS_LABELS, STATUS_TONES, WAITING_LABELS, type WaitingFor } from "./format";

export function StatusBadge({ status, waitingFor }: { status: RunStatus; waitingFor?: WaitingFor | null }) {
  return (
    <span className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_TONES[status]}`}>
      {status === "running" ? <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-current" /> : null}
      {status === "waiting" && waitingFor ? WAITING_LABELS[waitingFor] : STATUS_LABELS[status]}
    </span>
  );
}
