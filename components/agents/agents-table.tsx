"use client";
// The table of agents: what each runs on and can use, who changed it last; New agent (the template gallery; opened
// at once by /agents?new=1, where home's checklist links), Import, and per row Duplicate and Delete (confirmed, by name).
import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { Bot, Copy, FileUp, Plus, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { SearchBox } from "@/components/ui/search-box";
import { Table, TableBody, TableCell, TableEmpty, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { DeleteAgentDialog } from "./delete-agent-dialog";
import { ImportAgentDialog } from "./import-agent-dialog";
import { PROVIDER_LABELS, usesInWords } from "./labels";
import { TemplateGallery } from "./template-gallery";

type Row = { id: string; name: string; version: number };

export function AgentsTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: agents } = useSuspenseQuery(trpc.agents.list.queryOptions());
  const sources = useQuery(trpc.agents.sources.queryOptions());
  const [query, setQuery] = useState("");
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [importing, setImporting] = useState(false);
  const opened = useSearchParams().get("new") === "1";
  const [choosing, setChoosing] = useState(opened);
  const [notice, setNotice] = useState<{ id: string; text: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() });
  const duplicate = useMutation(trpc.agents.duplicate.mutationOptions({ onSettled: refresh }));
  const known = useMemo(() => sources.data?.sources ?? [], [sources.data]);

  const rows = useMemo(
    () => agents.map((agent) => ({ ...agent, uses: usesInWords(agent.entries, known) })),
    [agents, known],
  );
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase();
    if (!needle) return rows;
    return rows.filter((a) => [a.name, a.description, a.model.model, a.model.connection ?? "", a.uses].some((text) => text.toLowerCase().includes(needle)));
  }, [rows, query]);

  const error = errorSentence(duplicate.error);
  const newButton = (
    <Button variant="primary" onClick={() => setChoosing(true)}>
      <Plus aria-hidden className="h-4 w-4" />
      New agent
    </Button>
  );
  const importButton = (
    <Button onClick={() => setImporting(true)}>
      <FileUp aria-hidden className="h-4 w-4" /> Import
    </Button>
  );

  return (
    <section className="px-8 py-6" aria-label="Agents">
      <DeleteAgentDialog agent={deleting} onClose={() => setDeleting(null)} />
      <TemplateGallery open={choosing} onOpenChange={setChoosing} />
      <ImportAgentDialog
        open={importing}
        onOpenChange={setImporting}
        onImported={(agent, renamedFrom) =>
          setNotice({
            id: agent.id,
            text: renamedFrom ? `Imported as ${agent.name}, since an agent named ${renamedFrom} already exists.` : `Imported ${agent.name}.`,
          })
        }
      />
      {error ? (
        <p role="alert" className="mb-3 text-sm text-red-600">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p role="status" className="mb-3 text-sm text-zinc-700 dark:text-zinc-300">
          {notice.text}{" "}
          <Link href={`/agents/${notice.id}`} className="text-accent dark:text-indigo-400 hover:underline">
            Open it
          </Link>
        </p>
      ) : null}
      {agents.length === 0 ? (
        <EmptyState
          icon={Bot}
          title="No agents yet — New agent"
          actions={
            <>
              {newButton}
              {importButton}
            </>
          }
        >
          An agent is a model with instructions and the tools it may use. Start one from a template here, or import one another studio exported.
        </EmptyState>
      ) : (
        <>
          <div className="mb-4 flex items-center gap-4">
            <SearchBox label="Search agents" value={query} onSearch={setQuery} placeholder="Search agents" />
            <div className="ml-auto flex gap-2">
              {importButton}
              {newButton}
            </div>
          </div>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Model</TableHead>
                <TableHead>Can use</TableHead>
                <TableHead>Last run</TableHead>
                <TableHead>Changed</TableHead>
                <TableHead><span className="sr-only">Actions</span></TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((agent) => (
                <TableRow key={agent.id} className="align-top">
                  <TableCell>
                    <Link href={`/agents/${agent.id}`} className="font-medium hover:text-accent hover:underline">
                      {agent.name}
                    </Link>
                    {agent.description ? <span className="block max-w-xs truncate text-xs text-zinc-500 dark:text-zinc-400">{agent.description}</span> : null}
                  </TableCell>
                  <TableCell>
                    <span className="block font-mono text-xs">{agent.model.model}</span>
                    <span className="block text-xs text-zinc-500 dark:text-zinc-400">
                      {agent.model.connection ? `${agent.model.connection} · ` : ""}
                      {PROVIDER_LABELS[agent.model.provider as keyof typeof PROVIDER_LABELS] ?? agent.model.provider}
                    </span>
                  </TableCell>
                  <TableCell className="max-w-md text-zinc-700 dark:text-zinc-300">
                    <span className={agent.entries.length === 0 ? "text-zinc-500 dark:text-zinc-400" : ""}>{agent.uses}</span>
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                    {agent.lastRunAt ? (
                      <Time at={agent.lastRunAt} />
                    ) : (
                      <span className="text-zinc-500 dark:text-zinc-400">Never</span>
                    )}
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                    <Time at={agent.updatedAt} />
                    <span className="block text-xs text-zinc-500 dark:text-zinc-400">by {agent.updatedByName ?? "someone since removed"}</span>
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-right">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Duplicate ${agent.name}`}
                      title="Duplicate"
                      disabled={duplicate.isPending}
                      onClick={() => duplicate.mutate({ id: agent.id })}
                    >
                      <Copy aria-hidden className="h-3.5 w-3.5" />
                    </Button>
                    <Button size="sm" variant="ghost" aria-label={`Delete ${agent.name}`} title="Delete" onClick={() => setDeleting(agent)}>
                      <Trash2 aria-hidden className="h-3.5 w-3.5" />
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
              {shown.length === 0 ? <TableEmpty colSpan={6}>No agent matches “{query}”.</TableEmpty> : null}
            </TableBody>
          </Table>
        </>
      )}
    </section>
  );
}
