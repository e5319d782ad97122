"use client";
// "What the model sees": the exact tool list the model is offered for the selection on screen (saved or not),
// each tool's name, description and input schema, and the problems that keep an entry from offering anything
// (two sources offering one name). Settings and secrets cannot appear: the server builds this from three fields.
// An MCP tool that changed since the save is listed apart: a run holds it back until a builder accepts the change.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import type { Source } from "@/server/catalog/sources";
import { sourceOf, splitEntry } from "./draft";
import { scrollToChange } from "./held-back-note";
import { fallbackTitle } from "./labels";

export function ModelViewPanel({
  entries,
  sources,
  withheld,
  review,
}: {
  entries: string[];
  sources: readonly Source[];
  /** The tools a run holds back until a builder accepts their change, by the names the model reads. */
  withheld: ReadonlySet<string>;
  /** The id of the panel on the page that shows the change. */
  review: string | null;
}) {
  const trpc = useTRPC();
  const view = useQuery(trpc.agents.modelView.queryOptions({ entries }, { placeholderData: keepPreviousData }));
  const all = view.data?.tools ?? [];
  const tools = all.filter((tool) => !withheld.has(tool.name));
  const held = all.filter((tool) => withheld.has(tool.name));
  const titleAt = (index: number) => {
    const entry = entries[index] ?? "";
    return sourceOf(entry, sources)?.title ?? fallbackTitle(splitEntry(entry).source);
  };

  return (
    <aside aria-labelledby="model-view-heading" className="flex min-h-0 flex-col">
      <div className="border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 id="model-view-heading" className="flex items-center gap-1.5 text-sm font-semibold">
          <Eye aria-hidden className="h-4 w-4 text-zinc-500 dark:text-zinc-400" /> What the model sees
        </h2>
        <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
          {view.data ? `${tools.length} ${tools.length === 1 ? "tool" : "tools"}, exactly as they are sent` : "Reading…"}
          {view.isFetching && view.data ? " · updating" : ""}
        </p>
        <p className="mt-1 text-xs font-medium text-zinc-700 dark:text-zinc-300">Settings and secrets are never part of this.</p>
      </div>
      <div className="min-h-0 flex-1 overflow-auto px-4 py-3" aria-busy={view.isFetching}>
        <ErrorText error={view.error} className="text-xs text-red-600" />
        {view.data && view.data.problems.length > 0 ? (
          <ul role="alert" aria-label="Not offered" className="mb-3 flex flex-col gap-1.5 rounded-md bg-red-50 px-3 py-2 text-xs text-red-800 dark:bg-red-950 dark:text-red-200">
            {view.data.problems.map((p, i) => (
              <li key={i}>
                <span className="font-medium">{titleAt(p.index)} offers nothing: </span>
                {p.message}
              </li>
            ))}
          </ul>
        ) : null}
        {held.length > 0 ? (
          <div role="status" className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-100">
            <p className="font-medium">Held back until you accept their change</p>
            <p className="mt-0.5">
              Their server changed what they tell the model since the agent was saved.{" "}
              {review ? (
                <a
                  href={`#${review}`}
                  onClick={(event) => {
                    const target = document.getElementById(review);
                    if (!target) return;
                    event.preventDefault();
                    scrollToChange(target);
                  }}
                  className="font-medium underline decoration-amber-400 underline-offset-2 hover:decoration-amber-700"
                >
                  Review the change
                </a>
              ) : null}
            </p>
            <ul aria-label="Tools held back" className="mt-1 flex flex-wrap gap-1">
              {held.map((tool) => (
                <li key={tool.name} className="rounded border border-amber-300 px-1.5 font-mono text-[11px] dark:border-amber-800">
                  {tool.name}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {view.data && tools.length === 0 && held.length === 0 && view.data.problems.length === 0 ? (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">No tools: the model can only answer in words. Add a source and tick its operations to offer some.</p>
        ) : null}
        <ol aria-label="Tools the model is offered" className="flex flex-col gap-2">
          {tools.map((tool) => (
            <li key={tool.name} aria-label={tool.name} className="rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-800">
              <p className="font-mono text-xs font-semibold">{tool.name}</p>
              <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">{tool.description}</p>
              <details className="mt-1">
                <summary className="cursor-pointer text-[11px] text-zinc-500 dark:text-zinc-400 hover:text-zinc-800 dark:hover:text-zinc-200">Input schema</summary>
                <pre className="mt-1 overflow-auto rounded bg-zinc-50 px-2 py-1.5 font-mono text-[11px] leading-snug dark:bg-zinc-900">
                  {JSON.stringify(tool.input_schema, null, 2)}
                </pre>
              </details>
            </li>
          ))}
        </ol>
      </div>
    </aside>
  );
}
