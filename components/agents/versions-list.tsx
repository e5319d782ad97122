"use client";
// Versions: every save of the agent, newest first: who, when, and what changed.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Time } from "@/components/ui/time";
import { EditorSection } from "./editor-section";

const SHOWN = 6;

export function VersionsList({ id, current }: { id: string; current: number }) {
  const trpc = useTRPC();
  const versions = useQuery(trpc.agents.versions.queryOptions({ id }));
  const [all, setAll] = useState(false);
  const rows = versions.data ?? [];
  return (
    <EditorSection id="versions" title="Versions" lede="Every save is kept, with who made it and what changed.">
      <ErrorText error={versions.error} className="text-xs text-red-600" />
      <ol className="flex flex-col text-xs">
        {(all ? rows : rows.slice(0, SHOWN)).map((v) => (
          <li key={v.version} className="grid grid-cols-[3rem_1fr_auto] gap-3 border-b border-zinc-100 py-1.5 last:border-b-0 dark:border-zinc-900">
            <span className="tabular-nums text-zinc-500 dark:text-zinc-400">v{v.version}</span>
            <span className="min-w-0">
              {v.summary}
              {v.version === current ? <span className="ml-1.5 text-zinc-500 dark:text-zinc-400">(open here)</span> : null}
            </span>
            <span className="whitespace-nowrap text-zinc-500 dark:text-zinc-400">
              {v.savedByName ?? "someone since removed"} · <Time at={v.savedAt} />
            </span>
          </li>
        ))}
      </ol>
      {rows.length > SHOWN ? (
        <button type="button" onClick={() => setAll(!all)} className="mt-1 text-xs text-accent dark:text-indigo-400 hover:underline">
          {all ? "Show the latest only" : `Show all ${rows.length} versions`}
        </button>
      ) : null}
    </EditorSection>
  );
}
