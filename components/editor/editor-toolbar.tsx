"use client";
// Above the code: the file's name, whether its edits are saved (or kept as a draft), and its actions.
import { Pencil, Save, Trash2, Upload } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import { isDirty, type Buffer } from "./buffers";

function saveStatus(buffer: Buffer | undefined, draftKept: boolean): string {
  if (!buffer) return "";
  if (buffer.saving) return "Saving…";
  if (buffer.saveError) return "";
  if (!isDirty(buffer)) return "Saved";
  return draftKept ? "Unsaved · draft kept" : "Unsaved";
}

export function EditorToolbar({
  path,
  buffer,
  draftKept,
  onRename,
  onDelete,
  onPublish,
  onSave,
  fixedName = false,
}: {
  path: string;
  /** A project file beside the tree keeps its name: no Rename, no Delete. */
  fixedName?: boolean;
  buffer: Buffer | undefined;
  /** The newest edits are on the server as a draft, so a reload keeps them. */
  draftKept: boolean;
  onRename: () => void;
  onDelete: () => void;
  onPublish: () => void;
  onSave: () => void;
}) {
  return (
    <>
      <div className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <h1 className="font-mono text-sm font-semibold">{path}</h1>
        <span role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
          {saveStatus(buffer, draftKept)}
        </span>
        {buffer?.restoredAt ? (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">
            Restored your unsaved edits from <Time at={buffer.restoredAt} />.
          </span>
        ) : null}
        <div className="ml-auto flex gap-1">
          {fixedName ? null : (
            <>
              <Button variant="ghost" size="sm" onClick={onRename} disabled={!buffer}>
                <Pencil aria-hidden className="h-3.5 w-3.5" /> Rename
              </Button>
              <Button variant="ghost" size="sm" onClick={onDelete} disabled={!buffer}>
                <Trash2 aria-hidden className="h-3.5 w-3.5" /> Delete
              </Button>
            </>
          )}
          <Button variant="secondary" size="sm" onClick={onPublish}>
            <Upload aria-hidden className="h-3.5 w-3.5" /> Publish
          </Button>
          <Button
            variant="primary"
            size="sm"
            title="Save (Ctrl+S)"
            onClick={onSave}
            disabled={!buffer || buffer.saving || !!buffer.conflict}
          >
            <Save aria-hidden className="h-3.5 w-3.5" /> Save
          </Button>
        </div>
      </div>
      {buffer?.saveError ? (
        <p role="alert" className="border-b border-red-200 bg-red-50 px-3 py-1.5 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
          Not saved: {buffer.saveError}
        </p>
      ) : null}
    </>
  );
}
