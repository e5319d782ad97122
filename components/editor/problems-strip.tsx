"use client";
// The Problems strip under the editor: every error against the file with its line; a click goes there.
import { CircleAlert, CircleCheck } from "lucide-react";
import type { Problem } from "./preview-state";

export function ProblemsStrip({ problems, onGoTo }: { problems: Problem[]; onGoTo: (line: number) => void }) {
  return (
    <section aria-label="Problems" className="flex max-h-40 min-h-16 flex-col border-t border-zinc-200 dark:border-zinc-800">
      <h2 className="flex items-center gap-2 px-3 py-1.5 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        Problems
        <span className="rounded bg-zinc-100 px-1.5 tabular-nums text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
          {problems.length}
        </span>
      </h2>
      {problems.length === 0 ? (
        <p className="flex items-center gap-1.5 px-3 pb-2 text-xs text-zinc-500 dark:text-zinc-400">
          <CircleCheck aria-hidden className="h-3.5 w-3.5 text-emerald-600" /> No problems: every operation in this file can be offered.
        </p>
      ) : (
        <ul className="overflow-auto pb-1">
          {problems.map((problem, index) => (
            <li key={index}>
              <button
                type="button"
                onClick={() => onGoTo(problem.line ?? 1)}
                className="flex w-full items-start gap-2 px-3 py-1 text-left text-xs hover:bg-zinc-100 dark:hover:bg-zinc-800"
              >
                <CircleAlert aria-hidden className="mt-0.5 h-3.5 w-3.5 shrink-0 text-red-600" />
                <span className="shrink-0 font-mono text-zinc-500 dark:text-zinc-400">line {problem.line ?? "?"}</span>
                <span className="text-zinc-800 dark:text-zinc-200">{problem.message}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
