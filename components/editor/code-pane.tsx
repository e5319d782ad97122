"use client";
// The centre of the editor: the shown file in Monaco (one model per path, kept between tabs), or why it is not
// there yet, or the merge view of a save that met a newer version on disk.
import Editor from "@monaco-editor/react";
import type { editor } from "monaco-editor";
import { memo } from "react";
import { useMonacoTheme } from "@/components/theme/use-page-theme";
import type { Buffer } from "./buffers";
import { ConflictView } from "./conflict-view";
import type { Monaco } from "./monaco-setup";
import { isProjectFile, projectLanguage } from "@/server/tree/project-names";

const OPTIONS = { fontSize: 13, minimap: { enabled: false }, scrollBeyondLastLine: false, tabSize: 4, automaticLayout: true };

type Props = {
  path: string;
  buffer: Buffer | undefined;
  monaco: Monaco | null;
  monacoError: Error | null;
  openError: string | null;
  onMount: (mounted: editor.IStandaloneCodeEditor, monaco: Monaco) => void;
  onChange: (source: string) => void;
  onSaveMerge: (merged: string) => void;
  onTakeTheirs: () => void;
};

/**
 * What the pane shows of a buffer. The text itself only seeds a new model (Monaco holds it from then on), so a key
 * that changes it re-renders nothing here; in a conflict the merge view shows it, so there it counts.
 */
function samePane(before: Props, after: Props): boolean {
  const a = before.buffer;
  const b = after.buffer;
  const sameBuffer = a === b || (!!a && !!b && a.conflict === b.conflict && a.saving === b.saving && (!a.conflict || a.source === b.source));
  return (
    sameBuffer &&
    before.path === after.path &&
    before.monaco === after.monaco &&
    before.monacoError === after.monacoError &&
    before.openError === after.openError &&
    before.onMount === after.onMount &&
    before.onChange === after.onChange &&
    before.onSaveMerge === after.onSaveMerge &&
    before.onTakeTheirs === after.onTakeTheirs
  );
}

// A keystroke re-renders the editor around the pane, not the pane: Monaco already shows the key (R-preview-editor-still).
export const CodePane = memo(function CodePane({
  path,
  buffer,
  monaco,
  monacoError,
  openError,
  onMount,
  onChange,
  onSaveMerge,
  onTakeTheirs,
}: Props) {
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
}, samePane);
