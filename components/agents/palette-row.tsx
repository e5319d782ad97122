// One source in the "Add a source" palette: what it is, its risk, what it can do, why it cannot be added (a tree
// file with errors), and, for a search, the operations that matched, each addable on its own.
import { Plus } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { Capability } from "@/server/operations/capabilities";
import type { Source } from "@/server/catalog/sources";
import { RiskBadge } from "./risk-badge";

export type Match = { name: string; title: string; reasons: string[] };

export function PaletteRow({
  source,
  added,
  capabilities,
  matches,
  onAdd,
}: {
  source: Source;
  added: boolean;
  capabilities: readonly Capability[];
  matches: Match[] | null;
  onAdd: (operations: string[] | null) => void;
}) {
  const label = (tag: string) => capabilities.find((c) => c.tag === tag)?.label ?? tag;
  return (
    <li aria-label={source.title} className="flex items-start gap-3 border-b border-zinc-100 px-4 py-2.5 last:border-b-0 dark:border-zinc-900">
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-2">
          <span className="text-sm font-medium">{source.title}</span>
          <RiskBadge risk={source.risk} />
          <span className="font-mono text-[11px] text-zinc-500 dark:text-zinc-400">{source.entry}</span>
        </div>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">{source.description}</p>
        {source.capabilities.length > 0 ? (
          <p className="mt-0.5 text-[11px] text-zinc-500 dark:text-zinc-400">
            Can: {source.capabilities.map((tag) => label(tag).toLowerCase()).join(" · ")}
          </p>
        ) : null}
        {!source.offered && source.unavailable ? (
          <p className="mt-1 text-xs text-amber-700 dark:text-amber-300">Cannot be added right now: {source.unavailable}.</p>
        ) : !source.offered ? (
          <div className="mt-1 text-xs text-red-600">
            <p className="font-medium">Cannot be added until its file is fixed:</p>
            <ul className="list-disc pl-5">
              {source.errors.map((e, i) => (
                <li key={i}>
                  {e.line !== null ? `line ${e.line}: ` : ""}
                  {e.message}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {matches && source.offered ? (
          <ul className="mt-1 flex flex-wrap gap-1.5">
            {matches.map((m) => (
              <li key={m.name}>
                <button
                  type="button"
                  onClick={() => onAdd([m.name])}
                  title={m.reasons.join("; ")}
                  className="inline-flex items-center gap-1 rounded border border-zinc-300 px-1.5 py-0.5 text-[11px] hover:border-accent hover:text-accent dark:border-zinc-700"
                >
                  <Plus aria-hidden className="h-3 w-3" /> Only {m.title}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <Button size="sm" variant={added ? "ghost" : "secondary"} disabled={added || !source.offered} onClick={() => onAdd(null)} aria-label={added ? `${source.title} is added` : `Add ${source.title}`}>
        {added ? "Added" : "Add"}
      </Button>
    </li>
  );
}
