"use client";
// The History tab: a file's published versions (from the database, the same on every studio process), and two of
// them (by default the latest and the file on disk) compared: what the model sees differently, in words, and the
// code, in Monaco's read-only diff editor.
import { DiffEditor } from "@monaco-editor/react";
import { skipToken, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { describeChange } from "@/server/tree/schema-diff";
import { PublishDialog } from "./publish-dialog";
import { useMonaco } from "./use-monaco";

const WORKING = "working";

// One object for the editor's whole life: a new one each render would make the diff editor update its options.
const DIFF_OPTIONS = {
  readOnly: true,
  originalEditable: false,
  renderSideBySide: false,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 12,
};

type Version = { number: number; commit: string; message: string; at: string };

function label(version: string, versions: Version[]): string {
  if (version === WORKING) return "the file on disk now";
  const found = versions.find((v) => v.commit === version);
  return found ? `version ${found.number} (${found.message.split("\n")[0]})` : version.slice(0, 7);
}

export function HistoryPanel({ path }: { path: string }) {
  const trpc = useTRPC();
  const { monaco, theme: monacoTheme } = useMonaco();
  const [publishing, setPublishing] = useState(false);
  // The picked pair belongs to one file: switching files goes back to the default pair.
  const [picked, setPicked] = useState<{ path: string; from: string; to: string } | null>(null);
  const versions = useQuery(trpc.tools.history.versions.queryOptions({ path }));
  const list = versions.data ?? [];
  const from = picked?.path === path ? picked.from : list[0]?.commit;
  const to = picked?.path === path ? picked.to : WORKING;
  const compare = useQuery({
    ...trpc.tools.history.compare.queryOptions(from && from !== to ? { path, from, to } : skipToken),
    // A published version never changes, the file on disk may have been saved since.
    staleTime: to === WORKING || from === WORKING ? 0 : 30_000,
  });

  if (versions.error) return <ErrorText error={versions.error} className="p-4 text-sm text-red-600" />;
  if (versions.isPending) return <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Reading the history…</p>;
  if (list.length === 0 || !from) {
    return (
      <div className="flex flex-col items-start gap-3 p-4 text-sm text-zinc-600 dark:text-zinc-400">
        <p>Not published yet — Publish saves a version of the whole tree.</p>
        <Button variant="primary" size="sm" onClick={() => setPublishing(true)}>
          Publish…
        </Button>
        <PublishDialog open={publishing} onOpenChange={setPublishing} />
      </div>
    );
  }

  const pick = (side: "from" | "to", version: string) => setPicked({ path, from, to, [side]: version });
  const rows = [{ number: null as number | null, commit: WORKING, message: "File on disk now", at: null as string | null }, ...list];
  const data = compare.data;

  return (
    <div className="flex flex-col gap-3 p-3">
      <Table density="compact">
        <TableCaption className="sr-only">Published versions of {path}, newest first</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead className="w-10">From</TableHead>
            <TableHead className="w-10">To</TableHead>
            <TableHead>Version</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => {
            const short = row.commit === WORKING ? "the file on disk" : row.commit.slice(0, 7);
            return (
              <TableRow key={row.commit} className="align-top">
                <TableCell>
                  <input type="radio" name={`history-from-${path}`} aria-label={`Compare from ${short}`} checked={from === row.commit} onChange={() => pick("from", row.commit)} />
                </TableCell>
                <TableCell>
                  <input type="radio" name={`history-to-${path}`} aria-label={`Compare to ${short}`} checked={to === row.commit} onChange={() => pick("to", row.commit)} />
                </TableCell>
                <TableCell>
                  <span className="block text-sm">{row.message.split("\n")[0]}</span>
                  {row.at ? (
                    <span className="text-zinc-500 dark:text-zinc-400">
                      version {row.number} · <span className="font-mono">{short}</span> · <Time at={row.at} />
                    </span>
                  ) : (
                    <span className="text-zinc-500 dark:text-zinc-400">what is saved now; unsaved edits are not included</span>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>

      <section aria-label="What the model sees differently" className="flex flex-col gap-1">
        <h3 className="text-sm font-semibold">
          From {label(from, list)} to {label(to, list)}
        </h3>
        {from === to ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">Pick two different versions to compare them.</p>
        ) : compare.error ? (
          <ErrorText error={compare.error} />
        ) : !data ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">Comparing…</p>
        ) : data.schemaDiff.length === 0 ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">The model sees these two versions alike: names, descriptions and parameters are the same.</p>
        ) : (
          <ul className="flex list-disc flex-col gap-0.5 pl-5 text-sm">
            {data.schemaDiff.map((change, index) => (
              <li key={index}>{describeChange(change)}</li>
            ))}
          </ul>
        )}
      </section>

      {data && from !== to ? (
        <section aria-label="Code changes" className="flex flex-col gap-1">
          <h3 className="text-sm font-semibold">Code</h3>
          {data.before.source === data.after.source ? (
            <p className="text-sm text-zinc-500 dark:text-zinc-400">The code is the same in both.</p>
          ) : monaco ? (
            <div className="h-[28rem] rounded-md border border-zinc-200 dark:border-zinc-800" data-testid="history-diff">
              <DiffEditor
                // A new pair gets new models; the old ones are disposed with the editor that held them.
                key={`${path}:${from}:${to}`}
                original={data.before.source}
                modified={data.after.source}
                language="python"
                theme={monacoTheme}
                // Never the editor's own model (its path is the file name itself), and one model per file and version.
                originalModelPath={`history/from/${from}/${path}`}
                modifiedModelPath={`history/to/${to}/${path}`}
                options={DIFF_OPTIONS}
              />
            </div>
          ) : (
            <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading the code editor…</p>
          )}
        </section>
      ) : null}
    </div>
  );
}
