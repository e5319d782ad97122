// The note that the tree has a call hook (hooks/tools.py): it decides on each call with its arguments, whatever the
// approvals here say, and which operations it names.
import { Shield } from "lucide-react";
import type { HookInfo } from "@/server/agents/hook";
import type { Source } from "@/server/catalog/sources";

export function HookNote({ hook, sources }: { hook: HookInfo; sources: readonly Source[] }) {
  const title = (name: string) => sources.flatMap((s) => s.operations).find((op) => op.name === name)?.title ?? name;
  return (
    <p className="mb-3 flex items-start gap-2 rounded-md bg-zinc-50 px-3 py-2 text-xs text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">
      <Shield aria-hidden className="mt-px h-3.5 w-3.5 shrink-0 text-zinc-500 dark:text-zinc-400" />
      <span>
        This tree has a call hook (<code className="font-mono">{hook.path}</code>): it sees each call with its arguments before it runs, and
        may refuse it or ask you first whatever is set here, or let it run without asking where this agent&apos;s default would ask. A
        Never set here always holds.{" "}
        {hook.governs === "all"
          ? "It names no operation, so it may decide on any of them."
          : `It governs ${hook.governs.map(title).join(", ")}.`}
      </span>
    </p>
  );
}
