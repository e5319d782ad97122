"use client";
// Ctrl/Cmd+P: type part of a file name, Enter opens the first match.
import { useState, type KeyboardEvent } from "react";
import { Dialog } from "@/components/ui/dialog";

export function QuickOpen({
  open,
  onOpenChange,
  files,
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  files: string[];
  onPick: (path: string) => void;
}) {
  const [query, setQuery] = useState("");
  const matches = files.filter((file) => file.toLowerCase().includes(query.trim().toLowerCase()));
  const pick = (path: string) => {
    onPick(path);
    onOpenChange(false);
    setQuery("");
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && matches[0]) {
      event.preventDefault();
      pick(matches[0]);
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Open a file">
      <input
        autoFocus
        aria-label="File name"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Type part of a file name"
        className="w-full rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 font-mono text-sm outline-none focus:border-accent dark:border-zinc-700"
      />
      <ul className="mt-2 max-h-64 overflow-auto">
        {matches.map((file) => (
          <li key={file}>
            <button
              type="button"
              onClick={() => pick(file)}
              className="w-full rounded px-2 py-1 text-left font-mono text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
            >
              {file}
            </button>
          </li>
        ))}
        {matches.length === 0 ? <li className="px-2 py-1 text-sm text-zinc-500 dark:text-zinc-400">No file matches.</li> : null}
      </ul>
    </Dialog>
  );
}
