"use client";
// "What the model sees": the exact tool list the model is offered for the selection on screen (saved or not),
// each tool's name, description and input schema, and the problems that keep an entry from offering anything
// (two sources offering one name). Settings and secrets cannot appear: the server builds this from three fields.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import type { Source } from "@/server/catalog/sources";
import { sourceOf, splitEntry } from "./draft";
import { fallbackTitle } from "./labels";

export function ModelViewPanel({ entries, sources }: { entries: string[]; sources: readonly Source[] }) {
  const trpc = useTRPC();
  const view = useQuery(trpc.agents.modelView.queryOptions({ entries }, { placeholderData: keepPreviousData }));
  const tools = view.data?.tools ?? [];
  const titleAt = (index: number) => {
    const entry = entries[index] ?? "";
    return sourceOf(entry, sources)?.title ?? fallbackTitle(splitEntry(entry).source);
  };

  return (
    <aside aria-labelledby="model-view-heading" className="flex min-h-0 flex-col">
      <div className="border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 id="model-view-heading" className="flex items-center gap-1.5 text-sm font-semibold">
          <Eye aria-hidden className="h-4 w-4 text-zinc-500" /> What the model sees
        </h2>
        <p className="mt-0.5 text-xs text-zinc-500">
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
        {view.data && tools.length === 0 && view.data.problems.length === 0 ? (
          <p className="text-xs text-zinc-500">No tools: the model can only answer in words. Add a source and tick its operations to offer some.</p>
        ) : null}
        <ol aria-label="Tools the model is offered" className="flex flex-col gap-2">
          {tools.map((tool) => (
            <li key={tool.name} aria-label={tool.name} className="rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-800">
              <p className="font-mono text-xs font-semibold">{tool.name}</p>
              <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">{tool.description}</p>
              <details className="mt-1">
                <summary className="cursor-pointer text-[11px] text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200">Input schema</summary>
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
