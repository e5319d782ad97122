"use client";
// A save met a newer version on disk: the two side by side (Monaco's diff editor), the right side
// editable, so the developer merges and saves on top of the newer version. Nothing is lost.
import { DiffEditor } from "@monaco-editor/react";
import type { editor } from "monaco-editor";
import { useRef } from "react";
import { useMonacoTheme } from "@/components/theme/use-page-theme";
import { Button } from "@/components/ui/button";
import type { Version } from "./buffers";

export function ConflictView({
  path,
  theirs,
  mine,
  saving,
  onSaveMerge,
  onTakeTheirs,
}: {
  path: string;
  theirs: Version;
  mine: string;
  saving: boolean;
  onSaveMerge: (merged: string) => void;
  onTakeTheirs: () => void;
}) {
  const diff = useRef<editor.IStandaloneDiffEditor | null>(null);
  const theme = useMonacoTheme();
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div role="alert" className="flex flex-wrap items-center gap-3 border-b border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
        <span className="min-w-0 flex-1">
          <strong>{path} changed on disk</strong> since you opened it. Left: the version on disk. Right: yours — edit it into
          the version you want, then save.
        </span>
        <Button variant="secondary" size="sm" onClick={onTakeTheirs}>
          Discard mine, use the version on disk
        </Button>
        <Button
          variant="primary"
          size="sm"
          disabled={saving}
          onClick={() => onSaveMerge(diff.current?.getModifiedEditor().getValue() ?? mine)}
        >
          {saving ? "Saving…" : "Save merged version"}
        </Button>
      </div>
      <div className="min-h-0 flex-1" data-testid="conflict-diff">
        <DiffEditor
          original={theirs.source}
          modified={mine}
          language="python"
          theme={theme}
          originalModelPath={`disk/${path}`}
          modifiedModelPath={`merge/${path}`}
          options={{ renderSideBySide: true, originalEditable: false, minimap: { enabled: false }, fontSize: 13 }}
          onMount={(editor) => (diff.current = editor)}
        />
      </div>
    </div>
  );
}
