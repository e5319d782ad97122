"use client";
// A save met a newer version: who saved it, when, and what they changed, with the two ways on: load theirs (your
// changes are dropped), or save yours over it. Never silent.
import { GitMerge } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";

export type Theirs = { version: number; savedByName: string | null; savedAt: Date | string; summary: string | null };

export function ConflictBanner({ theirs, saving, onLoadTheirs, onOverwrite }: { theirs: Theirs; saving: boolean; onLoadTheirs: () => void; onOverwrite: () => void }) {
  return (
    <div role="alert" className="mt-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      <p className="flex items-center gap-1.5 font-medium">
        <GitMerge aria-hidden className="h-4 w-4" />
        {theirs.savedByName ?? "Someone"} saved version {theirs.version} of this agent since you opened it (<Time at={theirs.savedAt} />).
      </p>
      <p className="mt-1 text-xs">
        Their change: <span className="font-medium">{theirs.summary ?? "…"}</span>. Your changes are not saved yet. Load theirs to drop yours, or
        save yours over theirs (theirs stays in Versions).
      </p>
      <div className="mt-2 flex gap-2">
        <Button size="sm" onClick={onLoadTheirs}>
          Load theirs
        </Button>
        <Button size="sm" variant="primary" disabled={saving} onClick={onOverwrite}>
          {saving ? "Saving…" : "Overwrite with mine"}
        </Button>
      </div>
    </div>
  );
}
