"use client";
// The table of the tool tree's files, with a search box and an empty state that says what to do.
import { useSuspenseQuery } from "@tanstack/react-query";
import { FileCode2, Search } from "lucide-react";
import { useMemo, useState } from "react";
import { useTRPC } from "@/components/trpc/provider";

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

export function TreeTable() {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.tools.files.queryOptions());
  const [query, setQuery] = useState("");
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase();
    return needle ? data.files.filter((file) => file.path.toLowerCase().includes(needle)) : data.files;
  }, [data.files, query]);

  if (data.files.length === 0) {
    return (
      <div className="mx-8 my-10 max-w-xl rounded-lg border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700">
        <FileCode2 aria-hidden className="mx-auto mb-3 h-6 w-6 text-zinc-400" />
        <p className="font-medium">No tool files yet</p>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          {data.exists ? "Add a Python file to " : "Create the folder "}
          <code className="font-mono">{data.dir}</code>
          {data.exists ? ", for example notes.py with one function that has type hints and a docstring." : " and put a Python file in it."}
        </p>
      </div>
    );
  }

  return (
    <section className="px-8 py-6" aria-label="Tool files">
      <div className="mb-4 flex items-center justify-between gap-4">
        <label className="relative block w-72">
          <span className="sr-only">Search tool files</span>
          <Search aria-hidden className="pointer-events-none absolute left-2.5 top-2.5 h-4 w-4 text-zinc-400" />
          <input
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Search files"
            className="w-full rounded-md border border-zinc-300 bg-transparent py-1.5 pl-8 pr-3 text-sm outline-none focus:border-accent dark:border-zinc-700"
          />
        </label>
        <p className="text-xs text-zinc-500">
          Tree: <code className="font-mono">{data.dir}</code>
        </p>
      </div>
      <table className="w-full max-w-4xl text-left text-sm">
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500 dark:border-zinc-800">
          <tr>
            <th scope="col" className="py-2 font-medium">File</th>
            <th scope="col" className="py-2 font-medium">Kind</th>
            <th scope="col" className="py-2 text-right font-medium">Size</th>
            <th scope="col" className="py-2 pl-6 font-medium">Changed</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((file) => (
            <tr key={file.path} className="border-b border-zinc-100 dark:border-zinc-900">
              <td className="py-2 font-mono">{file.path}</td>
              <td className="py-2 text-zinc-600 dark:text-zinc-400">{file.helper ? "Helper" : "Tool file"}</td>
              <td className="py-2 text-right tabular-nums text-zinc-600 dark:text-zinc-400">
                {formatBytes(file.bytes)}
              </td>
              <td className="py-2 pl-6 text-zinc-600 dark:text-zinc-400">
                <time dateTime={file.changedAt}>{dateFormat.format(new Date(file.changedAt))}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">No file matches “{query}”.</p>
      ) : null}
    </section>
  );
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} kB`;
}
