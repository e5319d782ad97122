"use client";
// The tree's files beside the editor: the open one marked, a red dot on files with problems.
import { FilePlus2 } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

export type ListedFile = { path: string; problems: number; unsaved: boolean };

export function FileList({
  files,
  active,
  onOpen,
  onNew,
  children,
}: {
  files: ListedFile[];
  /** What sits under the tree's files (the Project files group). */
  children?: ReactNode;
  active: string;
  onOpen: (path: string) => void;
  onNew: () => void;
}) {
  return (
    <nav aria-label="Tool files" className="flex w-48 shrink-0 flex-col border-r border-zinc-200 dark:border-zinc-800">
      <div className="flex items-center justify-between px-3 py-2">
        <h2 className="text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Files</h2>
        <Button variant="ghost" size="sm" aria-label="New tool file" title="New tool file" onClick={onNew}>
          <FilePlus2 aria-hidden className="h-4 w-4" />
        </Button>
      </div>
      <ul className="overflow-auto pb-2">
        {files.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              onClick={() => onOpen(file.path)}
              aria-current={file.path === active ? "page" : undefined}
              className={`flex w-full items-center gap-2 px-3 py-1 text-left font-mono text-xs ${
                file.path === active
                  ? "bg-accent-soft text-accent dark:bg-zinc-800 dark:text-zinc-50"
                  : "hover:bg-zinc-100 dark:hover:bg-zinc-800"
              }`}
            >
              <span className="min-w-0 flex-1 truncate">{file.path}</span>
              {file.unsaved ? <span className="text-zinc-500 dark:text-zinc-400" title="Unsaved edits">●</span> : null}
              {file.problems > 0 ? (
                <span
                  role="img"
                  aria-label={`${file.problems} ${file.problems === 1 ? "problem" : "problems"}`}
                  className="h-2 w-2 rounded-full bg-red-600"
                />
              ) : null}
            </button>
          </li>
        ))}
      </ul>
      {children}
    </nav>
  );
}
