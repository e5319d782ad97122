// The builder's words for the values an agent holds: providers, risks, what an agent can use.
import type { Risk } from "@/server/operations/operation";
import type { Source } from "@/server/catalog/sources";
import { splitEntry } from "./draft";

export const PROVIDER_LABELS = { openai: "OpenAI", anthropic: "Anthropic", "openai-compatible": "OpenAI-compatible server" } as const;

export const RISK_LABELS: Record<Risk, { label: string; help: string; className: string }> = {
  read: {
    label: "Reads",
    help: "Only reads: nothing is changed.",
    className: "border-zinc-300 text-zinc-600 dark:border-zinc-700 dark:text-zinc-400",
  },
  write: {
    label: "Changes things",
    help: "Can create, change or delete.",
    className: "border-amber-300 bg-amber-50 text-amber-800 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200",
  },
  network: {
    label: "Network",
    help: "Reaches other machines over the network.",
    className: "border-sky-300 bg-sky-50 text-sky-800 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-200",
  },
  exec: {
    label: "Runs programs",
    help: "Runs commands or programs.",
    className: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
  },
};

/** "tools/quick_notes.py" → "Quick notes", "system:web" → "Web": a name for a source the catalog does not list. */
export function fallbackTitle(source: string): string {
  const words = source.replace(/^system:|^tools\//, "").replace(/\.py$/, "").replace(/_+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What an agent can use, in words: "Files (Read a file, List a folder) · Tickets". */
export function usesInWords(entries: readonly string[], sources: readonly Source[]): string {
  if (entries.length === 0) return "Nothing yet";
  return entries
    .map((entry) => {
      const { source: name, operations } = splitEntry(entry);
      const source = sources.find((s) => s.entry === name);
      const title = source?.title ?? fallbackTitle(name);
      if (operations === null) return title;
      const titles = operations.map((op) => source?.operations.find((o) => o.name === op)?.title ?? op);
      return `${title} (${titles.join(", ")})`;
    })
    .join(" · ");
}
