// Home's checklist for a new studio (R-start-steps): the viewer's steps in order, each with its state and a link to
// where it is done. Rendered on the server from the checklist the page read; home leaves it out once all are done.
import Link from "next/link";
import { ArrowRight, CheckCircle2, Circle } from "lucide-react";
import type { Checklist } from "@/server/start/checklist";

export function StartChecklist({ checklist }: { checklist: Checklist }) {
  const { steps } = checklist;
  const done = steps.filter((step) => step.done).length;
  return (
    <section aria-labelledby="start-heading" className="px-8 pt-6">
      <div className="max-w-4xl rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <h2 id="start-heading" className="font-medium">
          Get started
        </h2>
        <p className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">
          {done} of {steps.length} done. This list goes away once every step is.
        </p>
        <ol aria-label="Steps" className="mt-3 flex flex-col divide-y divide-zinc-100 dark:divide-zinc-800">
          {steps.map((step, i) => (
            <li key={step.id} className="flex items-start gap-3 py-2.5">
              {step.done ? (
                <CheckCircle2 aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
              ) : (
                <Circle aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-zinc-400 dark:text-zinc-500" />
              )}
              <div className="min-w-0 flex-1">
                <p id={`step-${step.id}`} className={`text-sm font-medium ${step.done ? "text-zinc-500 dark:text-zinc-400" : ""}`}>
                  {i + 1}. {step.title}
                </p>
                <p className="text-sm text-zinc-600 dark:text-zinc-400">{step.text}</p>
              </div>
              <span className={`shrink-0 text-xs font-medium ${step.done ? "text-emerald-700 dark:text-emerald-400" : "text-zinc-500 dark:text-zinc-400"}`}>
                {step.done ? "Done" : "To do"}
              </span>
              <Link
                href={step.href}
                aria-describedby={`step-${step.id}`}
                className={`flex shrink-0 items-center gap-1 rounded text-sm outline-none hover:underline focus-visible:ring-2 focus-visible:ring-accent ${step.done ? "text-zinc-600 dark:text-zinc-400" : "text-accent dark:text-indigo-400"}`}
              >
                {step.action}
                <ArrowRight aria-hidden className="h-3.5 w-3.5" />
              </Link>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
