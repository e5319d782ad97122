"use client";
// Every problem of the agent in one list at the top, each naming its place in the builder's words and linking
// to the field that shows it. After a refused save it is announced.
import { CircleAlert } from "lucide-react";
import type { Problem } from "@/server/agents/declaration";
import type { Source } from "@/server/catalog/sources";
import { anchorOf, placeOf } from "./draft";

export function ProblemSummary({
  problems,
  entries,
  sources,
  announce,
}: {
  problems: readonly Problem[];
  entries: readonly string[];
  sources: readonly Source[];
  announce: boolean;
}) {
  if (problems.length === 0) return null;
  return (
    <section
      role={announce ? "alert" : undefined}
      aria-labelledby="problems-heading"
      className="mt-6 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
    >
      <h2 id="problems-heading" className="flex items-center gap-1.5 font-medium">
        <CircleAlert aria-hidden className="h-4 w-4" />
        {problems.length === 1 ? "One thing to fix before this agent can be saved" : `${problems.length} things to fix before this agent can be saved`}
      </h2>
      <ul className="mt-1.5 flex flex-col gap-1 text-xs">
        {problems.map((p, i) => (
          <li key={i}>
            <a
              href={`#${anchorOf(p.path)}`}
              onClick={(event) => {
                const target = document.getElementById(anchorOf(p.path));
                if (!target) return;
                event.preventDefault();
                target.scrollIntoView({ block: "center" });
                target.focus({ preventScroll: true });
              }}
              className="font-medium underline decoration-red-300 underline-offset-2 hover:decoration-red-600"
            >
              {placeOf(p.path, entries, sources)}
            </a>
            : {p.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
