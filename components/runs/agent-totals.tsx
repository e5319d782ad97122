"use client";
// Above /runs: per agent, its runs, tokens and cost over every run the list's filters keep (R-cost-totals), summed
// by the database; a cost per currency as the admin gave it, and how many runs had no price (never counted as 0).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/provider";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
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

export function AgentTotals({ filter }: { filter: RunFilter }) {
  const trpc = useTRPC();
  const totals = useQuery(trpc.runs.totals.queryOptions(filter));
  const rows = totals.data ?? [];
  if (totals.isError) return <p className="mb-4 text-sm text-red-600 dark:text-red-400">The totals per agent could not be read; reload the page to try again.</p>;
  if (rows.length === 0) return null;
  return (
    <Table density="compact" className="mb-6 max-w-4xl" aria-label="Totals per agent">
      <TableCaption className="mb-1 text-left text-xs text-zinc-500 dark:text-zinc-400">Per agent, over every run these filters keep, not only the 200 listed below.</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>Agent</TableHead>
          <TableHead className="text-right">Runs</TableHead>
          <TableHead className="text-right">Tokens in</TableHead>
          <TableHead className="text-right">Tokens out</TableHead>
          <TableHead>Cost</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.agentId} className="align-top">
            <TableCell>
              <Link href={`/agents/${row.agentId}`} className="font-medium hover:text-accent hover:underline">
                {row.agentName || "Untitled agent"}
              </Link>
            </TableCell>
            <TableCell className="text-right tabular-nums">{count(row.runs)}</TableCell>
            <TableCell className="text-right tabular-nums">{count(row.tokensIn)}</TableCell>
            <TableCell className="text-right tabular-nums">{count(row.tokensOut)}</TableCell>
            <TableCell>
              <CostText costs={row.costs} unpriced={row.unpriced} runs={row.runs} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
