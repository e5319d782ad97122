"use client";
// The table of secrets: name, description, where used, last used, updated, and Rotate and Delete per row.
// No cell, control or dialog here ever holds a value the server sent: the API has none to send.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { KeyRound, Plus, RefreshCw, Trash2 } from "lucide-react";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { DeleteSecretDialog } from "./delete-secret-dialog";
import { NewSecretDialog } from "./new-secret-dialog";
import { RotateSecretDialog } from "./rotate-secret-dialog";

type Reference = { id: string; label: string; href: string };

function WhereUsed({ references }: { references: Reference[] }) {
  if (references.length === 0) return <span className="text-zinc-500 dark:text-zinc-400">Not used</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {references.slice(0, 3).map((reference) => (
        <li key={reference.id} className="max-w-xs truncate">
          <Link href={reference.href} className="hover:text-accent hover:underline" title={reference.label}>
            {reference.label.replace(/^the /, "")}
          </Link>
        </li>
      ))}
      {references.length > 3 ? <li className="text-zinc-500 dark:text-zinc-400">and {references.length - 3} more</li> : null}
    </ul>
  );
}

export function SecretsTable() {
  const trpc = useTRPC();
  const list = useQuery(trpc.secrets.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [rotating, setRotating] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<{ name: string; references: Reference[] } | null>(null);

  const newButton = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus aria-hidden className="h-4 w-4" /> New secret
    </Button>
  );
  const rows = list.data ?? [];

  return (
    <section className="px-8 py-6" aria-label="Secrets">
      <NewSecretDialog open={creating} onOpenChange={setCreating} />
      <RotateSecretDialog name={rotating} onClose={() => setRotating(null)} />
      <DeleteSecretDialog secret={deleting} onClose={() => setDeleting(null)} />
      {list.error ? (
        <ErrorText
          error={list.error}
          byCode={{ FORBIDDEN: "Managing secrets needs the Admin role; ask an admin of this studio to give it to you in Settings → Users." }}
          className="max-w-xl text-sm text-red-600"
        />
      ) : list.isPending ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the secrets…</p>
      ) : rows.length === 0 ? (
        <EmptyState icon={KeyRound} title="No secrets yet — New secret" actions={newButton}>
          A secret is a token or password a tool needs. Save it here once; builders then pick it by name, as{" "}
          <code className="font-mono">{"${NAME}"}</code>, in a tool&apos;s settings.
        </EmptyState>
      ) : (
        <>
          <div className="mb-4 flex justify-end">{newButton}</div>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Description</TableHead>
                <TableHead>Where used</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead>Updated</TableHead>
                <TableHead><span className="sr-only">Actions</span></TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((secret) => (
                <TableRow key={secret.name} className="align-top">
                  <TableCell className="whitespace-nowrap font-mono">{secret.name}</TableCell>
                  <TableCell className="max-w-sm text-zinc-600 dark:text-zinc-400">{secret.description || <span className="text-zinc-400">—</span>}</TableCell>
                  <TableCell className="text-xs">
                    <WhereUsed references={secret.references} />
                  </TableCell>
                  <TableCell className="text-zinc-600 dark:text-zinc-400">{secret.lastUsedAt ? <Time at={secret.lastUsedAt} /> : "Never"}</TableCell>
                  <TableCell className="text-zinc-600 dark:text-zinc-400">
                    <Time at={secret.updatedAt} />
                    {secret.updatedByName ? <span className="block text-xs text-zinc-500 dark:text-zinc-400">by {secret.updatedByName}</span> : null}
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-right">
                    <Button size="sm" variant="ghost" aria-label={`Rotate ${secret.name}`} onClick={() => setRotating(secret.name)}>
                      <RefreshCw aria-hidden className="h-3.5 w-3.5" /> Rotate
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Delete ${secret.name}`}
                      onClick={() => setDeleting({ name: secret.name, references: secret.references })}
                    >
                      <Trash2 aria-hidden className="h-3.5 w-3.5" /> Delete
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </section>
  );
}
