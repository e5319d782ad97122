"use client";
// The editor's Project files group under the tree (R-deps-edit): the checkout's dependency files and the call hook,
// each opened in a tab like a tool file; one not there yet is marked, and saving it creates it. The dependency status
// sits under them.
import { useQuery } from "@tanstack/react-query";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { PROJECT_FILES } from "@/server/tree/project-names";
import { DepsStatusLine } from "./deps-status";

export function ProjectFilesList({
  active,
  unsaved,
  onOpen,
}: {
  active: string;
  /** The project files with unsaved edits open. */
  unsaved: ReadonlySet<string>;
  onOpen: (path: string) => void;
}) {
  const trpc = useTRPC();
  const list = useQuery(trpc.tools.project.list.queryOptions());
  const present = new Map((list.data ?? []).map((file) => [file.name, file.present]));
  return (
    <section aria-label="Project files" className="border-t border-zinc-200 pt-2 dark:border-zinc-800">
      <h2 className="px-3 pb-1 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Project files</h2>
      <ErrorText error={list.error} className="px-3 text-xs text-red-600" />
      <ul>
        {PROJECT_FILES.map((name) => {
          const missing = list.data ? !present.get(name) : false;
          return (
            <li key={name}>
              <button
                type="button"
                onClick={() => onOpen(name)}
                aria-current={name === active ? "page" : undefined}
                title={[missing ? `${name} is not there yet: open it and save to create it` : name, unsaved.has(name) ? "unsaved edits" : ""]
                  .filter(Boolean)
                  .join("; ")}
                className={`flex w-full items-center gap-2 px-3 py-1 text-left font-mono text-xs ${
                  name === active
                    ? "bg-accent-soft text-accent dark:bg-zinc-800 dark:text-zinc-50"
                    : "hover:bg-zinc-100 dark:hover:bg-zinc-800"
                } ${missing ? "text-zinc-500 dark:text-zinc-400" : ""}`}
              >
                <span className="min-w-0 flex-1 truncate">{name}</span>
                {/* The markers stay out of the button's name (the file's), and the title describes them. */}
                {unsaved.has(name) ? <span aria-hidden className="text-zinc-400">●</span> : null}
                {missing ? <span aria-hidden className="font-sans text-[10px] uppercase tracking-wide">new</span> : null}
              </button>
            </li>
          );
        })}
      </ul>
      <DepsStatusLine className="px-3 py-2 text-xs text-zinc-600 dark:text-zinc-400" />
    </section>
  );
}
