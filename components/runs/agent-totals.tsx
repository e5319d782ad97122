"use client";
// Above /runs: per agent, its runs, tokens and cost over every run the list's filters keep (R-cost-totals), summed
// by the database; a cost per currency as the admin gave it, and how many runs had no price (never counted as 0).
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import { costWords } from "@/server/models/price-words";
import type { RunFilter } from "@/server/runtime/store";

const count = (n: number) => n.toLocaleString("en");

function CostText({ costs, unpriced, runs }: { costs: { currency: string; amount: string }[]; unpriced: number; runs: number }) {
  if (costs.length === 0) return <span className="text-zinc-500 dark:text-zinc-400">no price set</span>;
  return (
    <>
      <span className="tabular-nums">{costs.map((c) => costWords(c.amount, c.currency)).join(" + ")}</span>
      {unpriced > 0 ? (
        <span className="block text-xs text-zinc-500 dark:text-zinc-400">
          {count(unpriced)} of {count(runs)} runs with no price set
        </span>
      ) : null}
    </>
  );
}

/**
 * A list of cards rather than a second table: the runs below stay the page's only rows and its only links by agent
 * name, so "the agent's row" or "the agent's link" on /runs still means one run.
 */
export function AgentTotals({ filter }: { filter: RunFilter }) {
  const trpc = useTRPC();
  const totals = useQuery(trpc.runs.totals.queryOptions(filter));
  const rows = totals.data ?? [];
  if (totals.isError) return <p className="mb-4 text-sm text-red-600 dark:text-red-400">The totals per agent could not be read; reload the page to try again.</p>;
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="totals-heading" className="mb-6">
      <h2 id="totals-heading" className="text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        Per agent
      </h2>
      <p className="mb-2 text-xs text-zinc-500 dark:text-zinc-400">Over every run these filters keep, not only the 200 listed below.</p>
      <ul aria-label="Totals per agent" className="grid grid-cols-[repeat(auto-fill,minmax(15rem,1fr))] gap-2">
        {rows.map((row) => (
          <li key={row.agentId} aria-label={`Totals of ${row.agentName || "Untitled agent"}`} className="rounded-md border border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
            <span className="block truncate font-medium" title={row.agentName}>
              {row.agentName || "Untitled agent"}
            </span>
            <dl className="mt-1 grid grid-cols-[4.5rem_minmax(0,1fr)] gap-x-2 text-xs">
              <dt className="text-zinc-500 dark:text-zinc-400">Runs</dt>
              <dd className="tabular-nums">{count(row.runs)}</dd>
              <dt className="text-zinc-500 dark:text-zinc-400">Tokens</dt>
              <dd className="tabular-nums">
                {count(row.tokensIn)} in · {count(row.tokensOut)} out
              </dd>
              <dt className="text-zinc-500 dark:text-zinc-400">Cost</dt>
              <dd>
                <CostText costs={row.costs} unpriced={row.unpriced} runs={row.runs} />
              </dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
