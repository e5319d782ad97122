"use client";
// The open files as tabs: each keeps its own cursor and undo history (one Monaco model per file). A list of buttons,
// the current one marked, rather than ARIA tabs: each tab has its own close button, which a tablist may not hold.
import { X } from "lucide-react";

export function EditorTabs({
  tabs,
  active,
  onSelect,
  onClose,
}: {
  tabs: { path: string; dirty: boolean }[];
  active: string;
  onSelect: (path: string) => void;
  onClose: (path: string) => void;
}) {
  return (
    <ul aria-label="Open files" className="flex overflow-x-auto border-b border-zinc-200 dark:border-zinc-800">
      {tabs.map((tab) => (
        <li
          key={tab.path}
          className={`group flex items-center border-r border-zinc-200 dark:border-zinc-800 ${
            tab.path === active ? "bg-white dark:bg-zinc-950" : "bg-zinc-50 text-zinc-500 dark:text-zinc-400 dark:bg-zinc-900"
          }`}
        >
          <button
            type="button"
            aria-current={tab.path === active ? "true" : undefined}
            onClick={() => onSelect(tab.path)}
            className="py-1.5 pl-3 pr-1 font-mono text-xs"
          >
            {tab.path}
            {tab.dirty ? (
              <span className="ml-1.5 text-accent dark:text-indigo-400">
                <span aria-hidden>●</span>
                <span className="sr-only">, modified</span>
              </span>
            ) : null}
          </button>
          <button
            type="button"
            aria-label={`Close ${tab.path}`}
            title={tab.dirty ? "Close (your unsaved edits stay kept as a draft)" : "Close"}
            onClick={() => onClose(tab.path)}
            className="mr-1 rounded p-0.5 opacity-60 hover:bg-zinc-200 hover:opacity-100 dark:hover:bg-zinc-700"
          >
            <X aria-hidden className="h-3 w-3" />
          </button>
        </li>
      ))}
    </ul>
  );
}
