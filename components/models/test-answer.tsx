"use client";
// What Test said, where it was pressed: one sentence with how long it took, and in the dialog each step it tried (the
// key, the model list, a one-token answer) and the models listed. Kept until the next Test, never a toast.
import { CircleAlert, CircleCheck, LoaderCircle } from "lucide-react";
import { errorSentence } from "@/components/trpc/errors";
import type { TestAnswer } from "./types";

const LISTED = 30;

export function duration(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`;
}

export function TestAnswerText({
  label,
  pending,
  error,
  answer,
  steps = false,
}: {
  /** The live region's name, e.g. "Test of local-ollama". */
  label: string;
  pending: boolean;
  error: unknown;
  answer: TestAnswer | undefined;
  /** Show each step under the sentence (the dialog has room; a row does not). */
  steps?: boolean;
}) {
  const failed = error ? errorSentence(error) : null;
  return (
    <div role="status" aria-label={label} className="text-xs">
      {pending ? (
        <span className="inline-flex items-center gap-1 text-zinc-600 dark:text-zinc-400">
          <LoaderCircle aria-hidden className="h-3.5 w-3.5 animate-spin" /> Testing…
        </span>
      ) : failed ? (
        <span className="inline-flex items-start gap-1 text-red-600 dark:text-red-400">
          <CircleAlert aria-hidden className="mt-px h-3.5 w-3.5 shrink-0" /> {failed}
        </span>
      ) : answer ? (
        <>
          <span className={`inline-flex items-start gap-1 ${answer.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-600 dark:text-red-400"}`}>
            {answer.ok ? <CircleCheck aria-hidden className="mt-px h-3.5 w-3.5 shrink-0" /> : <CircleAlert aria-hidden className="mt-px h-3.5 w-3.5 shrink-0" />}
            <span>{answer.sentence}</span>
          </span>
          {steps && answer.models.length > 0 ? (
            <p className="mt-1 pl-5 text-zinc-600 dark:text-zinc-400">
              Models it lists: <span className="font-mono">{answer.models.slice(0, LISTED).join(", ")}</span>
              {answer.models.length > LISTED ? ` and ${answer.models.length - LISTED} more` : ""}
            </p>
          ) : null}
          {steps && answer.steps.length > 0 ? (
            <ul aria-label="What Test tried" className="mt-1 flex flex-col gap-0.5 pl-5 text-zinc-600 dark:text-zinc-400">
              {answer.steps.map((step) => (
                <li key={step.what}>
                  <span className={step.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-600 dark:text-red-400"}>{step.ok ? "✓" : "✗"}</span>{" "}
                  {step.sentence} <span className="text-zinc-500 dark:text-zinc-400">({duration(step.ms)})</span>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
