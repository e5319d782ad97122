"use client";
// A confirmation before something is lost: it names what goes, keeps a refusal in the dialog (never a toast),
// and its danger button says exactly what it does ("Delete notes.py").
import type { ReactNode } from "react";
import { Dialog, DialogActions } from "./dialog";

export function ConfirmDialog({
  open,
  onCancel,
  title,
  description,
  children,
  error,
  pending,
  confirmLabel,
  busyLabel = "Deleting…",
  onConfirm,
}: {
  open: boolean;
  onCancel: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  error: string | null | undefined;
  pending: boolean;
  confirmLabel: string;
  /** What the button says while it works, when the action is not a deletion ("Revoking…"). */
  busyLabel?: string;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onCancel())} title={title} description={description}>
      {children}
      {error ? (
        <p role="alert" className="mb-3 text-sm text-red-600">
          {error}
        </p>
      ) : null}
      <DialogActions onCancel={onCancel} label={confirmLabel} busyLabel={busyLabel} busy={pending} danger onConfirm={onConfirm} />
    </Dialog>
  );
}
