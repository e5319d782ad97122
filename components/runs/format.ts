// How a run's times, statuses and outcomes read on the page.
import type { RunStatus } from "@/db/schema";
import type { CallState } from "./trace";

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1_000);
  return minutes < 60 ? `${minutes} min ${seconds} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A waiting run's label where what it waits on is not known (the status filter covers both kinds). */
export const STATUS_LABELS: Record<RunStatus, string> = {
  running: "Running",
  waiting: "Waiting for you",
  done: "Done",
  failed: "Failed",
  cancelled: "Stopped",
};

/** What a waiting run waits on, in the words of its call cards. */
export const WAITING_LABELS = { approval: "Waiting for approval", question: "Waiting for your answer", recovery: "Waiting: a call may have run" } as const;

export type WaitingFor = keyof typeof WAITING_LABELS;

export const STATUS_TONES: Record<RunStatus, string> = {
  running: "bg-indigo-50 text-indigo-700 ring-indigo-200 dark:bg-indigo-950 dark:text-indigo-300 dark:ring-indigo-900",
  waiting: "bg-amber-50 text-amber-800 ring-amber-200 dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-900",
  done: "bg-emerald-50 text-emerald-700 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-300 dark:ring-emerald-900",
  failed: "bg-red-50 text-red-700 ring-red-200 dark:bg-red-950 dark:text-red-300 dark:ring-red-900",
  cancelled: "bg-zinc-100 text-zinc-600 ring-zinc-200 dark:bg-zinc-800 dark:text-zinc-400 dark:ring-zinc-700",
};

/** A call's state in words, and the colour of its dot: grey refused, red failed, green ok. */
export const CALL_STATES: Record<CallState, { label: string; dot: string }> = {
  pending: { label: "Queued", dot: "bg-zinc-300 dark:bg-zinc-600" },
  approval: { label: "Waiting for your approval", dot: "bg-amber-500" },
  question: { label: "Waiting for your answer", dot: "bg-amber-500" },
  recovery: { label: "May have run: waiting for you", dot: "bg-amber-500" },
  running: { label: "Running", dot: "bg-indigo-500" },
  ok: { label: "Done", dot: "bg-emerald-500" },
  refused: { label: "Refused", dot: "bg-zinc-400" },
  failed: { label: "Failed", dot: "bg-red-500" },
  transient: { label: "Failed (temporary)", dot: "bg-red-500" },
  timeout: { label: "Timed out", dot: "bg-red-500" },
};
