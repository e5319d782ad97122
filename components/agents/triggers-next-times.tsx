// A schedule's next five times, each in the schedule's own zone, with the exact instant for machines.
import type { Tick } from "./triggers-types";

export function TriggersNextTimes({ id, times, label }: { id?: string; times: readonly Tick[]; label: string }) {
  if (times.length === 0) return null;
  return (
    <ol id={id} aria-label={label} className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs tabular-nums text-zinc-600 dark:text-zinc-400">
      {times.map((tick) => (
        <li key={String(tick.at)}>
          <time dateTime={new Date(tick.at).toISOString()}>{tick.label}</time>
        </li>
      ))}
    </ol>
  );
}
