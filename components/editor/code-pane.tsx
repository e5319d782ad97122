"use client";
// The centre of the editor: the shown file in Monaco (one model per path, kept between tabs), or why it is not
// there yet, or the merge view of a save that met a newer version on disk.
import Editor from "@monaco-editor/react";
import type { editor } from "monaco-editor";
import { useMonacoTheme } from "@/components/theme/use-page-theme";
import type { Buffer } from "./buffers";
import { ConflictView } from "./conflict-view";
import type { Monaco } from "./monaco-setup";
import { isProjectFile, projectLanguage } from "@/server/tree/project-names";

const OPTIONS = { fontSize: 13, minimap: { enabled: false }, scrollBeyondLastLine: false, tabSize: 4, automaticLayout: true };

export function CodePane({
  path,
  buffer,
  monaco,
  monacoError,
  openError,
  onMount,
  onChange,
  onSaveMerge,
  onTakeTheirs,
}: {
  path: string;
  buffer: Buffer | undefined;
  monaco: Monaco | null;
  monacoError: Error | null;
  openError: string | null;
  onMount: (mounted: editor.IStandaloneCodeEditor, monaco: Monaco) => void;
  onChange: (source: string) => void;
  onSaveMerge: (merged: string) => void;
  onTakeTheirs: () => void;
}) {
  const theme = useMonacoTheme();
  if (openError) return <p role="alert" className="m-4 text-sm text-red-600">{openError}</p>;
  if (monacoError) {
    return <p role="alert" className="m-4 text-sm text-red-600">The code editor could not load: {monacoError.message}</p>;
  }
  if (!monaco || !buffer) return <p className="m-4 text-sm text-zinc-500 dark:text-zinc-400">Opening {path}…</p>;
  if (buffer.conflict) {
    return (
      <ConflictView
        path={path}
        theirs={buffer.conflict}
        mine={buffer.source}
        saving={buffer.saving}
        onSaveMerge={onSaveMerge}
        onTakeTheirs={onTakeTheirs}
      />
    );
  }
  return (
    <div className="min-h-0 flex-1" data-testid="code-editor">
      <Editor
        path={path}
        defaultValue={buffer.source}
        language={isProjectFile(path) ? projectLanguage(path) : "python"}
        keepCurrentModel
        theme={theme}
        options={OPTIONS}
        onMount={onMount}
        onChange={(value) => {
          if (value !== undefined) onChange(value);
        }}
      />
    </div>
  );
}
