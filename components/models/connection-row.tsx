"use client";
// One connection's row: provider, address, key by secret name, models on offer and the agents that use it, with
// its prices per million tokens (R-cost-price), Test answering in the row itself (its sentence and the time it took),
// Prices, Edit and Delete.
import { AgentLinks } from "@/components/ui/agent-links";
import { useMutation } from "@tanstack/react-query";
import { Coins, KeyRound, Pencil, PlugZap, Trash2 } from "lucide-react";
import { pickedName } from "@/components/secrets/secret-picker";
import { useTRPC } from "@/components/trpc/provider";
import { PROVIDER_LABELS } from "@/components/agents/labels";
import { Button } from "@/components/ui/button";
import { TableCell, TableRow } from "@/components/ui/table";
import { TestAnswerText } from "./test-answer";
import type { Connection } from "./types";

function Offer({ models }: { models: string[] | null }) {
  if (models === null) return <span>All listed</span>;
  const shown = models.slice(0, 4);
  return (
    <span className="font-mono text-xs" title={models.join(", ")}>
      {shown.join(", ")}
      {models.length > shown.length ? <span className="font-sans text-zinc-500 dark:text-zinc-400"> and {models.length - shown.length} more</span> : null}
    </span>
  );
}

function Prices({ row }: { row: Connection }) {
  if (row.prices.length === 0) return <span className="text-xs text-zinc-500 dark:text-zinc-400">No prices set</span>;
  const shown = row.prices.slice(0, 3);
  return (
    <ul className="text-xs">
      {shown.map((p) => (
        <li key={p.model}>
          <span className="font-mono">{p.model}</span>{" "}
          <span className="whitespace-nowrap tabular-nums">
            {p.input} in · {p.output} out {row.currency}
          </span>
        </li>
      ))}
      {row.prices.length > shown.length ? <li className="text-zinc-500 dark:text-zinc-400">and {row.prices.length - shown.length} more</li> : null}
    </ul>
  );
}

export function ConnectionRow({ row, onEdit, onDelete, onPrices }: { row: Connection; onEdit: () => void; onDelete: () => void; onPrices: () => void }) {
  const trpc = useTRPC();
  const test = useMutation(trpc.models.test.mutationOptions());
  const key = pickedName(row.apiKey);

  return (
    // The id is where a secret's "where used" links to.
    <TableRow id={row.name} className="align-top target:bg-indigo-50 dark:target:bg-indigo-950/40">
      <TableCell>
        <span className="font-mono font-medium">{row.name}</span>
        {row.defaultModel ? <span className="block text-xs text-zinc-500 dark:text-zinc-400">Default: {row.defaultModel}</span> : null}
      </TableCell>
      <TableCell className="whitespace-nowrap">{PROVIDER_LABELS[row.provider as keyof typeof PROVIDER_LABELS] ?? row.provider}</TableCell>
      <TableCell>
        {row.baseUrl ? (
          <code className="block max-w-[14rem] truncate font-mono text-xs" title={row.baseUrl}>
            {row.baseUrl}
          </code>
        ) : (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">The provider&apos;s own</span>
        )}
      </TableCell>
      <TableCell className="whitespace-nowrap">
        {key ? (
          <span className="inline-flex items-center gap-1 font-mono text-xs">
            <KeyRound aria-hidden className="h-3.5 w-3.5 text-zinc-500 dark:text-zinc-400" /> {key}
          </span>
        ) : (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">No key</span>
        )}
      </TableCell>
      <TableCell className="max-w-[12rem]">
        <Offer models={row.models} />
      </TableCell>
      <TableCell className="max-w-[14rem]">
        <Prices row={row} />
      </TableCell>
      <TableCell className="text-xs">
        <AgentLinks agents={row.usedBy} />
      </TableCell>
      <TableCell className="text-right">
        <div className="flex justify-end gap-0.5 whitespace-nowrap">
          <Button size="sm" variant="ghost" aria-label={`Test ${row.name}`} disabled={test.isPending} onClick={() => test.mutate({ name: row.name })}>
            <PlugZap aria-hidden className="h-3.5 w-3.5" /> Test
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Prices of ${row.name}`} onClick={onPrices}>
            <Coins aria-hidden className="h-3.5 w-3.5" /> Prices
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Edit ${row.name}`} onClick={onEdit}>
            <Pencil aria-hidden className="h-3.5 w-3.5" /> Edit
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Delete ${row.name}`} onClick={onDelete}>
            <Trash2 aria-hidden className="h-3.5 w-3.5" /> Delete
          </Button>
        </div>
        <div className="mt-1 ml-auto max-w-[18rem] text-left">
          <TestAnswerText label={`Test of ${row.name}`} pending={test.isPending} error={test.error} answer={test.data} />
        </div>
      </TableCell>
    </TableRow>
  );
}
