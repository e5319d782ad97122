"use client";
// The table of the tool tree's files: what each offers, what is wrong with it, and a way in.
import { useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { FileCode2, Plus, ShieldAlert, ShieldCheck } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { SearchBox } from "@/components/ui/search-box";
import { Table, TableBody, TableCell, TableEmpty, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { useTRPC } from "@/components/trpc/provider";
import { DepsStatusLine } from "./deps-status";
import { NewFileDialog } from "./new-file-dialog";

const kindLabels = { functions: "Functions", class: "Class", module: "Module", helper: "Helper", tool_class: "Tool classes" } as const;

export function TreeTable({ canEdit }: { canEdit: boolean }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.tools.files.queryOptions());
  const [query, setQuery] = useState("");
  const [creating, setCreating] = useState(false);
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase();
    if (!needle) return data.files;
    return data.files.filter((file) =>
      [file.path, file.title ?? "", file.description ?? ""].some((text) => text.toLowerCase().includes(needle)),
    );
  }, [data.files, query]);

  const newButton = canEdit ? (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus aria-hidden className="h-4 w-4" />
      New tool file
    </Button>
  ) : null;

  return (
    <section className="px-8 py-6" aria-label="Tool files">
      <NewFileDialog open={creating} onOpenChange={setCreating} />
      {data.files.length === 0 ? (
        <EmptyState icon={FileCode2} title={canEdit ? "No tool files yet — New tool file" : "No tool files yet — a developer adds them"} actions={newButton}>
          A tool file is a Python file in <code className="font-mono">{data.dir}</code> whose functions, with type hints and a
          docstring, become the tools a model can call.
        </EmptyState>
      ) : (
        <>
          <div className="mb-4 flex items-center gap-4">
            <SearchBox label="Search tool files" value={query} onSearch={setQuery} placeholder="Search files" />
            <div className="ml-auto">{newButton}</div>
          </div>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>File</TableHead>
                <TableHead>Title</TableHead>
                <TableHead>Kind</TableHead>
                <TableHead className="text-right">Operations</TableHead>
                <TableHead>Problems</TableHead>
                <TableHead>Changed</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((file) => (
                <TableRow key={file.path}>
                  <TableCell className="font-mono">
                    {canEdit ? (
                      <Link href={`/tools/${encodeURIComponent(file.path)}`} className="hover:text-accent hover:underline">
                        {file.path}
                      </Link>
                    ) : (
                      file.path
                    )}
                  </TableCell>
                  <TableCell>
                    {/* Without a TITLE the file's own first docstring line is what a person reads. */}
                    {file.title ? <span className="block">{file.title}</span> : null}
                    {file.description ? (
                      <span className={`block max-w-md truncate ${file.title ? "text-xs text-zinc-500 dark:text-zinc-400" : ""}`}>
                        {file.description}
                      </span>
                    ) : null}
                    {!file.title && !file.description ? <span className="text-zinc-500 dark:text-zinc-400">—</span> : null}
                  </TableCell>
                  <TableCell className="text-zinc-600 dark:text-zinc-400">{file.kind ? kindLabels[file.kind] : "—"}</TableCell>
                  <TableCell className="text-right tabular-nums">{file.kind === "helper" ? "—" : file.operations}</TableCell>
                  <TableCell>
                    {file.errors.length === 0 && file.unavailable ? (
                      <span className="text-amber-700 dark:text-amber-300" title={file.unavailable}>
                        Not offered now
                      </span>
                    ) : file.errors.length === 0 ? (
                      <span className="text-zinc-500 dark:text-zinc-400">None</span>
                    ) : (
                      <span className="text-red-600" title={file.errors.map((e) => `line ${e.line ?? "?"}: ${e.message}`).join("\n")}>
                        {file.errors.length} {file.errors.length === 1 ? "error" : "errors"}
                      </span>
                    )}
                  </TableCell>
                  <TableCell className="text-zinc-600 dark:text-zinc-400">
                    <Time at={file.changedAt} />
                  </TableCell>
                </TableRow>
              ))}
              {shown.length === 0 ? <TableEmpty colSpan={6}>No file matches “{query}”.</TableEmpty> : null}
            </TableBody>
          </Table>
        </>
      )}
      <footer className="mt-6 flex flex-wrap items-center gap-x-6 gap-y-1 text-xs text-zinc-500 dark:text-zinc-400">
        <span>
          Tree: <code className="font-mono">{data.dir}</code>
        </span>
        {data.host.error ? (
          <span role="alert" className="text-red-600">{data.host.error}</span>
        ) : data.host.sandboxed ? (
          <span className="inline-flex items-center gap-1">
            <ShieldCheck aria-hidden className="h-3.5 w-3.5 text-emerald-600" /> Tool host sandboxed (bubblewrap)
          </span>
        ) : (
          <span className="inline-flex items-center gap-1 text-amber-700 dark:text-amber-500">
            <ShieldAlert aria-hidden className="h-3.5 w-3.5" /> {data.host.reason ?? "Tool host not sandboxed"}
          </span>
        )}
        {canEdit ? (
          <Link href="/tools/requirements.txt" className="hover:text-accent hover:underline" title="Open the project files">
            <DepsStatusLine />
          </Link>
        ) : (
          <DepsStatusLine />
        )}
        {data.host.lastReplacement ? (
          <span title={data.host.replacedAt ?? undefined}>Tool host replaced: {data.host.lastReplacement}</span>
        ) : null}
      </footer>
    </section>
  );
}
