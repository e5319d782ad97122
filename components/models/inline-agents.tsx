"use client";
// Agents that still carry their own provider, address and key: each can become a connection in one step, after
// which a new key or address is set once for every agent using it. Nothing shows when there are none.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { PROVIDER_LABELS } from "@/components/agents/labels";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { AdoptDialog, type Adopted, type AdoptedAgent } from "./adopt-dialog";

export function InlineAgents() {
  const trpc = useTRPC();
  const inline = useQuery(trpc.models.inline.queryOptions());
  const [adopting, setAdopting] = useState<AdoptedAgent | null>(null);
  const [made, setMade] = useState<Adopted | null>(null);
  const rows = inline.data ?? [];
  if (inline.error) return <ErrorText error={inline.error} className="mt-8 max-w-xl text-sm text-red-600 dark:text-red-400" />;
  const said = made ? (
    <p role="status" className="mt-6 text-sm text-emerald-700 dark:text-emerald-400">
      Made the connection {made.connection}
      {made.agents.length > 0 ? `; ${made.agents.join(", ")} now ${made.agents.length === 1 ? "uses" : "use"} it` : ""}.
    </p>
  ) : null;
  // The dialog stays mounted while the list empties under it, so its last step still runs.
  const dialog = <AdoptDialog agent={adopting} onClose={() => setAdopting(null)} onAdopted={setMade} />;
  if (rows.length === 0) {
    return (
      <>
        {dialog}
        {said}
      </>
    );
  }

  return (
    <section aria-labelledby="inline-agents-heading" className="mt-10">
      {dialog}
      {said}
      <h2 id="inline-agents-heading" className="text-sm font-semibold">
        Agents with their own model settings
      </h2>
      <p className="mt-0.5 mb-3 max-w-2xl text-xs text-zinc-500 dark:text-zinc-400">
        These agents carry a provider, address and key of their own. Make a connection from one, and it and any agent you point at it share one place to change them.
      </p>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Agent</TableHead>
            <TableHead>Provider</TableHead>
            <TableHead>Model</TableHead>
            <TableHead>Address</TableHead>
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((agent) => (
            <TableRow key={agent.agentId}>
              <TableCell>
                <Link href={`/agents/${agent.agentId}`} className="font-medium hover:text-accent hover:underline">
                  {agent.agentName}
                </Link>
              </TableCell>
              <TableCell className="whitespace-nowrap">{PROVIDER_LABELS[agent.provider as keyof typeof PROVIDER_LABELS] ?? agent.provider}</TableCell>
              <TableCell className="font-mono text-xs">{agent.model}</TableCell>
              <TableCell>
                {agent.baseUrl ? (
                  <code className="block max-w-[16rem] truncate font-mono text-xs" title={agent.baseUrl}>
                    {agent.baseUrl}
                  </code>
                ) : (
                  <span className="text-xs text-zinc-500 dark:text-zinc-400">The provider&apos;s own</span>
                )}
              </TableCell>
              <TableCell className="text-right">
                <Button
                  size="sm"
                  aria-label={`Make a connection from ${agent.agentName}`}
                  onClick={() => setAdopting({ agentId: agent.agentId, agentName: agent.agentName, provider: agent.provider, baseUrl: agent.baseUrl })}
                >
                  Make a connection
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
