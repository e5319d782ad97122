"use client";
// At the top of the agent page: which MCP servers changed what their tools tell the model since the agent was
// saved, so runs hold those tools back (R-mcp-pin-withheld), each linking to its card, where the change is shown
// beside what was accepted and can be accepted.
import { TriangleAlert } from "lucide-react";
import type { Source } from "@/server/catalog/sources";
import { sourceOf } from "./draft";

/** The id of an entry's accept-change panel, for links to it. */
export const changesAnchor = (index: number) => `tool-changes-${index}`;

/** Scrolls the page's column (not the window, which would take the page's title out of view) to the panel. */
export function scrollToChange(target: HTMLElement) {
  let column = target.parentElement;
  while (column && getComputedStyle(column).overflowY !== "auto") column = column.parentElement;
  if (!column) return target.scrollIntoView({ block: "start" });
  column.scrollBy({ top: target.getBoundingClientRect().top - column.getBoundingClientRect().top - 16 });
}

export function HeldBackNote({ unaccepted, sources }: { unaccepted: ReadonlyArray<{ index: number; entry: string; tools: readonly string[] }>; sources: readonly Source[] }) {
  if (unaccepted.length === 0) return null;
  return (
    <section aria-label="Held back from runs" className="mt-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      <p className="flex items-center gap-1.5 font-medium">
        <TriangleAlert aria-hidden className="h-4 w-4" />
        {unaccepted.length === 1 ? "A server changed its tools since this agent was saved" : "Servers changed their tools since this agent was saved"}
      </p>
      <ul className="mt-1 flex flex-col gap-0.5 text-xs">
        {unaccepted.map(({ index, entry, tools }) => (
          <li key={index}>
            {sourceOf(entry, sources)?.title ?? "An MCP server"}: {tools.join(", ")} {tools.length === 1 ? "is" : "are"} not offered to the model until you{" "}
            <a
              href={`#${changesAnchor(index)}`}
              onClick={(event) => {
                const target = document.getElementById(changesAnchor(index));
                if (!target) return;
                event.preventDefault();
                scrollToChange(target);
              }}
              className="font-medium underline decoration-amber-400 underline-offset-2 hover:decoration-amber-700"
            >
              review and accept the change
            </a>
            .
          </li>
        ))}
      </ul>
    </section>
  );
}
