"use client";
// "Add a source": every source with what it is, its risk and what it can do; a search by words ("read files")
// or by need ("file.write") that points at the operations that match. A tree file with errors is listed with
// why it cannot be added. The other agents are a group of their own, Agents, searched like the rest (R-spec-entry).
import * as RadixDialog from "@radix-ui/react-dialog";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { useReturnFocus } from "@/components/ui/dialog";
import { SearchBox } from "@/components/ui/search-box";
import type { Capability } from "@/server/operations/capabilities";
import type { Source } from "@/server/catalog/sources";
import { PaletteRow, type Match } from "./palette-row";
import { useDebounced } from "./use-debounced";

export function SourcePalette({
  open,
  onOpenChange,
  sources,
  capabilities,
  treeError,
  added,
  onAdd,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  sources: readonly Source[];
  capabilities: readonly Capability[];
  treeError: string | null;
  added: ReadonlySet<string>;
  onAdd: (source: Source, operations: string[] | null) => void;
}) {
  const trpc = useTRPC();
  const returnFocus = useReturnFocus(open);
  const [query, setQuery] = useState("");
  const settled = useDebounced(query.trim(), 150);
  const search = useQuery(trpc.agents.search.queryOptions({ query: settled }, { enabled: settled !== "", placeholderData: keepPreviousData }));
  const hits = settled && search.data ? search.data : null;
  const rows = hits
    ? hits.flatMap((hit) => {
        const source = sources.find((s) => s.entry === hit.entry);
        return source ? [{ source, matches: hit.operations as Match[] }] : [];
      })
    : sources.map((source) => ({ source, matches: null }));
  const groups = [
    { label: "Sources", rows: rows.filter((row) => row.source.kind !== "agent") },
    { label: "Agents", rows: rows.filter((row) => row.source.kind === "agent") },
  ].filter((group) => group.label === "Sources" || group.rows.length > 0 || !hits);

  // The needs some source can meet, as one-click searches.
  const declared = new Set(sources.filter((s) => s.offered).flatMap((s) => s.capabilities));
  const needs = capabilities.filter((c) => declared.has(c.tag));

  function add(source: Source, operations: string[] | null) {
    onAdd(source, operations);
    setQuery("");
    onOpenChange(false);
  }

  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/30" />
        <RadixDialog.Content {...returnFocus} className="fixed left-1/2 top-[10vh] z-50 flex max-h-[80vh] w-[40rem] max-w-[calc(100vw-2rem)] -translate-x-1/2 flex-col rounded-lg border border-zinc-200 bg-white shadow-xl dark:border-zinc-800 dark:bg-zinc-900">
          <div className="border-b border-zinc-200 px-4 pb-3 pt-4 dark:border-zinc-800">
            <RadixDialog.Title className="text-base font-semibold">Add a source</RadixDialog.Title>
            <RadixDialog.Description className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
              Search by what the agent should do, like “read files”, or by a need, like file.write.
            </RadixDialog.Description>
            <SearchBox label="Search sources" className="mt-3" autoFocus value={query} onSearch={setQuery} placeholder="read files, file.write, tickets…" />
            {!query ? (
              <div role="group" className="mt-2 flex flex-wrap gap-1" aria-label="Search by need">
                {needs.map((c) => (
                  <button
                    key={c.tag}
                    type="button"
                    onClick={() => setQuery(c.tag)}
                    className="rounded-full bg-zinc-100 px-2 py-0.5 text-[11px] text-zinc-700 hover:bg-indigo-50 hover:text-accent dark:bg-zinc-800 dark:text-zinc-300"
                  >
                    {c.label}
                  </button>
                ))}
              </div>
            ) : null}
          </div>
          {treeError ? (
            <p role="alert" className="border-b border-zinc-200 px-4 py-2 text-xs text-red-600 dark:border-zinc-800">
              {treeError}
            </p>
          ) : null}
          <div aria-busy={search.isFetching} className="min-h-0 flex-1 overflow-auto">
            {groups.map((group) => (
              <div key={group.label}>
                {group.label === "Agents" ? (
                  <h3 className="border-b border-zinc-100 bg-zinc-50 px-4 py-1.5 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400 dark:border-zinc-900 dark:bg-zinc-950">
                    Agents <span className="normal-case tracking-normal">— each becomes one tool that asks it to do a task</span>
                  </h3>
                ) : null}
                {group.label === "Agents" && group.rows.length === 0 ? (
                  <p className="px-4 py-2.5 text-xs text-zinc-500 dark:text-zinc-400">No other agents yet. Make one in Agents, then add it here to hand it tasks.</p>
                ) : null}
                <ul aria-label={group.label}>
                  {group.rows.map(({ source, matches }) => (
                    <PaletteRow
                      key={source.entry}
                      source={source}
                      added={added.has(source.entry)}
                      capabilities={capabilities}
                      matches={matches}
                      onAdd={(operations) => add(source, operations)}
                    />
                  ))}
                </ul>
              </div>
            ))}
          </div>
          {hits && rows.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-zinc-500 dark:text-zinc-400">
              Nothing matches “{query}”. Try fewer words, or a need such as file.read.
            </p>
          ) : null}
          <ErrorText error={search.error} className="px-4 py-2 text-xs text-red-600" />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
