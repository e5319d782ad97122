// Where a server stands, as a word with a colour and the pool's sentence beside it (why it failed, when it stopped).
import type { ServerStatus } from "./types";

const LOOKS: Record<string, { label: string; badge: string }> = {
  connected: { label: "Connected", badge: "bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-300 dark:ring-emerald-900" },
  starting: { label: "Starting", badge: "bg-amber-50 text-amber-800 ring-amber-200 dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-900" },
  failed: { label: "Failed", badge: "bg-red-50 text-red-800 ring-red-200 dark:bg-red-950 dark:text-red-300 dark:ring-red-900" },
  "needs-sign-in": { label: "Needs sign-in", badge: "bg-orange-50 text-orange-800 ring-orange-200 dark:bg-orange-950 dark:text-orange-300 dark:ring-orange-900" },
  stopped: { label: "Stopped", badge: "bg-zinc-100 text-zinc-700 ring-zinc-200 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-700" },
};

export function StatusBadge({ status }: { status: ServerStatus }) {
  const look = LOOKS[status.state] ?? { label: status.state, badge: LOOKS.stopped!.badge };
  return (
    <div className="flex max-w-xs flex-col gap-1">
      <span className={`inline-flex w-fit items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${look.badge}`}>{look.label}</span>
      <span className={`text-xs ${status.state === "failed" || status.state === "needs-sign-in" ? "text-red-700 dark:text-red-400" : "text-zinc-500 dark:text-zinc-400"}`}>{status.sentence}</span>
    </div>
  );
}
