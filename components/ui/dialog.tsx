"use client";
// A modal dialog on Radix: focus trapped, Escape closes, titled for screen readers, and focus back where it was.
import * as RadixDialog from "@radix-ui/react-dialog";
import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { Button } from "./button";

// The element focused before the one focused now: a field's autoFocus moves focus into a dialog before the dialog
// can see who opened it, so the opener is the one before.
let focused: Element | null = null;
let before: Element | null = null;
function follow(event: FocusEvent) {
  if (event.target === focused) return;
  before = focused;
  focused = event.target instanceof Element ? event.target : null;
}

/**
 * Gives focus back, on closing, to what had it when the dialog opened (R-a11y-escape). Radix returns it only to a
 * Dialog.Trigger, and the studio's dialogs are opened by state, so without this a keyboard user lands on the page's
 * start. Spread the result on the dialog's Content.
 */
export function useReturnFocus(open: boolean) {
  const content = useRef<HTMLDivElement | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    document.addEventListener("focusin", follow, true);
  }, []);
  useLayoutEffect(() => {
    if (!open) return;
    const inside = (el: Element | null) => !!el && !!content.current?.contains(el);
    const was = inside(document.activeElement) ? before : document.activeElement;
    opener.current = was instanceof HTMLElement && !inside(was) ? was : null;
  }, [open]);
  return {
    ref: content,
    onCloseAutoFocus: (event: Event) => {
      const back = opener.current;
      opener.current = null;
      if (back?.isConnected) {
        event.preventDefault();
        back.focus();
      }
    },
  };
}

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
  const returnFocus = useReturnFocus(open);
  const box = size === "wide" ? "top-[8vh] max-h-[84vh] w-[40rem] overflow-y-auto" : "top-1/4 w-[28rem]";
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/30" />
        <RadixDialog.Content {...returnFocus} className={`fixed left-1/2 z-50 ${box} max-w-[calc(100vw-2rem)] -translate-x-1/2 rounded-lg border border-zinc-200 bg-white p-5 shadow-xl dark:border-zinc-800 dark:bg-zinc-900`}>
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
