"use client";
// The table of API keys: name, prefix, scope (agents and what it may do), who made it, last used, expiry, status,
// and Revoke per live key. No cell here holds a key's value: the list has none to send.
import { useQuery } from "@tanstack/react-query";
import { Ban, KeySquare, Plus } from "lucide-react";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { formatDate } from "@/components/ui/dates";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { NewKeyDialog } from "./new-key-dialog";
import { RevokeKeyDialog } from "./revoke-key-dialog";
import { agentWords, scopeWords } from "./words";

type Status = { label: string; tone: string };

function statusOf(key: { revokedAt: string | null; expiresAt: string | null }, now: number): Status {
  if (key.revokedAt) return { label: `Revoked ${formatDate(key.revokedAt, "date")}`, tone: "text-zinc-500 dark:text-zinc-400" };
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= now) return { label: "Expired", tone: "text-amber-700 dark:text-amber-400" };
  return { label: "Active", tone: "text-emerald-700 dark:text-emerald-400" };
}

export function KeysTable() {
  const trpc = useTRPC();
  const list = useQuery(trpc.apiKeys.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<{ id: string; name: string; prefix: string } | null>(null);
  // Read once per render of the list: whether a key has expired is a matter of when the page looks.
  const [now] = useState(() => Date.now());

  const newButton = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus aria-hidden className="h-4 w-4" /> New key
    </Button>
  );
  const rows = list.data ?? [];

  return (
    <section className="px-8 py-6" aria-label="API keys">
      <NewKeyDialog open={creating} onOpenChange={setCreating} />
      <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
      {list.error ? (
        <ErrorText
          error={list.error}
          byCode={{ FORBIDDEN: "Managing API keys needs the Admin role; ask an admin of this studio to give it to you in Settings → Users." }}
          className="max-w-xl text-sm text-red-600"
        />
      ) : list.isPending ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the keys…</p>
      ) : rows.length === 0 ? (
        <EmptyState icon={KeySquare} title="No API keys yet — New key" actions={newButton}>
          A key lets a program outside the studio use your agents: a chat front end through the OpenAI-compatible
          endpoint, a script or CI job through the runs API, an IDE through MCP. Press New key, choose what it may
          reach, and copy its value once.
        </EmptyState>
      ) : (
        <>
          <div className="mb-4 flex justify-end">{newButton}</div>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Prefix</TableHead>
                <TableHead>Scope</TableHead>
                <TableHead>Created</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((key) => {
                const status = statusOf(key, now);
                return (
                  <TableRow key={key.id} className="align-top">
                    <TableCell className="font-medium">{key.name}</TableCell>
                    <TableCell className="whitespace-nowrap font-mono text-xs">{key.prefix}…</TableCell>
                    <TableCell className="max-w-xs">
                      <span className="block">{agentWords(key.agents, key.agentNames)}</span>
                      <span className="block text-xs text-zinc-500 dark:text-zinc-400">May {scopeWords(key.scopes)}</span>
                    </TableCell>
                    <TableCell className="text-zinc-600 dark:text-zinc-400">
                      <Time at={key.createdAt} format="date" />
                      <span className="block text-xs text-zinc-500 dark:text-zinc-400">by {key.createdByName ?? "someone since removed"}</span>
                    </TableCell>
                    <TableCell className="text-zinc-600 dark:text-zinc-400">{key.lastUsedAt ? <Time at={key.lastUsedAt} /> : "Never"}</TableCell>
                    <TableCell className="text-zinc-600 dark:text-zinc-400">{key.expiresAt ? <Time at={key.expiresAt} format="date" /> : "Never"}</TableCell>
                    <TableCell className={`whitespace-nowrap ${status.tone}`}>{status.label}</TableCell>
                    <TableCell className="whitespace-nowrap text-right">
                      {key.revokedAt ? null : (
                        <Button size="sm" variant="ghost" aria-label={`Revoke ${key.name}`} onClick={() => setRevoking({ id: key.id, name: key.name, prefix: key.prefix })}>
                          <Ban aria-hidden className="h-3.5 w-3.5" /> Revoke
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </>
      )}
    </section>
  );
}
