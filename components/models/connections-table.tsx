"use client";
// Settings → Models: the studio's model connections, New connection, each row's Test, Prices, Edit and Delete, and under
// them the agents that still carry their own model settings.
import { useQuery } from "@tanstack/react-query";
import { BrainCircuit, Plus } from "lucide-react";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ConnectionDialog } from "./connection-dialog";
import { ConnectionRow } from "./connection-row";
import { DeleteConnectionDialog } from "./delete-connection-dialog";
import { InlineAgents } from "./inline-agents";
import { PricesDialog } from "./prices-dialog";
import type { Connection } from "./types";

export function ConnectionsTable() {
  const trpc = useTRPC();
  const list = useQuery(trpc.models.list.queryOptions());
  const [editing, setEditing] = useState<Connection | "new" | null>(null);
  const [deleting, setDeleting] = useState<Connection | null>(null);
  const [pricing, setPricing] = useState<Connection | null>(null);
  const rows = list.data ?? [];

  const newButton = (
    <Button variant="primary" onClick={() => setEditing("new")}>
      <Plus aria-hidden className="h-4 w-4" /> New connection
    </Button>
  );

  return (
    <section className="px-8 py-6" aria-label="Model connections">
      <ConnectionDialog row={editing} onClose={() => setEditing(null)} />
      <DeleteConnectionDialog row={deleting} onClose={() => setDeleting(null)} />
      <PricesDialog connection={pricing} onClose={() => setPricing(null)} />
      {list.error ? (
        <ErrorText
          error={list.error}
          byCode={{ FORBIDDEN: "Managing model connections needs the Admin role; ask an admin of this studio to give it to you in Settings → Users." }}
          className="max-w-xl text-sm text-red-600 dark:text-red-400"
        />
      ) : list.isPending ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the connections…</p>
      ) : rows.length === 0 ? (
        <EmptyState icon={BrainCircuit} title="No model connections yet — New connection" actions={newButton}>
          Connect a model provider once (OpenAI, Anthropic, or a server such as Ollama on this machine); builders then pick it by name for their agents, without an address or key of their own.
        </EmptyState>
      ) : (
        <>
          <div className="mb-4 flex justify-end">{newButton}</div>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Provider</TableHead>
                <TableHead>Address</TableHead>
                <TableHead>Key</TableHead>
                <TableHead>Models on offer</TableHead>
                <TableHead>Prices per million tokens</TableHead>
                <TableHead>Used by</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <ConnectionRow key={row.name} row={row} onEdit={() => setEditing(row)} onDelete={() => setDeleting(row)} onPrices={() => setPricing(row)} />
              ))}
            </TableBody>
          </Table>
        </>
      )}
      <InlineAgents />
    </section>
  );
}
