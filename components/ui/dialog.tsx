"use client";
// A modal dialog on Radix: focus trapped, Escape closes, titled for screen readers.
import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { Button } from "./button";

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  size = "normal",
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** "wide" for a long form: wider, nearer the top, and scrolling within the window. */
  size?: "normal" | "wide";
}) {
  const box = size === "wide" ? "top-[8vh] max-h-[84vh] w-[40rem] overflow-y-auto" : "top-1/4 w-[28rem]";
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/30" />
        <RadixDialog.Content className={`fixed left-1/2 z-50 ${box} max-w-[calc(100vw-2rem)] -translate-x-1/2 rounded-lg border border-zinc-200 bg-white p-5 shadow-xl dark:border-zinc-800 dark:bg-zinc-900`}>
          <RadixDialog.Title className="text-base font-semibold">{title}</RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
              {description}
            </RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
          )}
          <div className="mt-4">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * A dialog's two buttons: Cancel, and the one that names what it does and says so while under way. Without
 * `onConfirm` it submits the dialog's form.
 */
export function DialogActions({
  onCancel,
  label,
  busyLabel,
  busy,
  disabled = false,
  danger = false,
  onConfirm,
  className = "",
}: {
  onCancel: () => void;
  label: string;
  busyLabel: string;
  busy: boolean;
  disabled?: boolean;
  danger?: boolean;
  onConfirm?: () => void;
  className?: string;
}) {
  return (
    <div className={`flex justify-end gap-2 ${className}`}>
      <Button type="button" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      <Button type={onConfirm ? "button" : "submit"} variant={danger ? "danger" : "primary"} disabled={disabled || busy} onClick={onConfirm}>
        {busy ? busyLabel : label}
      </Button>
    </div>
  );
}
