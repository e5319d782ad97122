"use client";
// Rename and delete the open file, each behind a dialog that says what will happen.
import { useState, type FormEvent } from "react";
import { FileNameField } from "@/components/tools/file-name-field";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { fileNameProblem } from "@/server/tree/names";

export function RenameDialog({
  path,
  open,
  onOpenChange,
  onRename,
  pending,
  error,
}: {
  path: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRename: (to: string) => void;
  pending: boolean;
  error: string | null;
}) {
  const [name, setName] = useState(path);
  const trimmed = name.trim();
  const problem = trimmed === path ? null : fileNameProblem(trimmed);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!problem && trimmed !== path) onRename(trimmed);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Rename ${path}`}
      description="The file name is the first part of every tool name in it, so agents that name these tools must be updated too."
    >
      <form onSubmit={submit} className="flex flex-col gap-3">
        <FileNameField id="rename-file" label="New name" value={name} onChange={setName} problem={problem} refusal={error} />
        <DialogActions onCancel={() => onOpenChange(false)} label="Rename" busyLabel="Renaming…" busy={pending} disabled={!!problem || trimmed === path} />
      </form>
    </Dialog>
  );
}

export function DeleteDialog({
  path,
  operations,
  usedBy,
  open,
  onOpenChange,
  onDelete,
  pending,
  error,
}: {
  path: string;
  operations: string[];
  /** The agents that name this file, or null while they are being looked up. */
  usedBy: string[] | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDelete: () => void;
  pending: boolean;
  error: string | null;
}) {
  return (
    <ConfirmDialog
      open={open}
      onCancel={() => onOpenChange(false)}
      title={`Delete ${path}?`}
      error={error}
      pending={pending}
      confirmLabel={`Delete ${path}`}
      onConfirm={onDelete}
    >
      <p className="mb-3 text-sm">
        {operations.length > 0
          ? `Its ${operations.length} ${operations.length === 1 ? "operation" : "operations"} (${operations.join(", ")}) will no longer be offered to any model.`
          : "It offers no operations."}{" "}
        {usedBy === null
          ? "Looking for agents that use it…"
          : usedBy.length === 0
            ? "No agent uses it."
            : `${usedBy.length === 1 ? "The agent" : "The agents"} ${usedBy.join(", ")} will lose ${operations.length === 1 ? "it" : "them"}.`}{" "}
        The file and any unsaved draft of it are removed; only a published version can bring it back.
      </p>
    </ConfirmDialog>
  );
}
