"use client";
// A new key's value, the one time it is shown (R-key-hash): read-only, selectable, copied with one click, and a line
// saying it will not be shown again. It lives only in the dialog's state and is gone when the dialog closes.
import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

export function KeyShownOnce({ name, value, onDone }: { name: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      // A page served over plain http to another machine has no clipboard: the field is selected for Ctrl+C instead.
      (document.getElementById("new-key-value") as HTMLInputElement | null)?.select();
      setCopied("failed");
    }
  }

  return (
    <div className="flex flex-col gap-3 text-sm">
      <p>
        The key <span className="font-medium">{name}</span> is ready. Copy its value now and keep it where the program
        that uses it can read it, as <code className="font-mono">Authorization: Bearer …</code>.
      </p>
      <div className="flex flex-col gap-1">
        <label htmlFor="new-key-value" className="font-medium">
          Key value
        </label>
        <div className="flex gap-2">
          <input
            id="new-key-value"
            readOnly
            value={value}
            spellCheck={false}
            onFocus={(event) => event.target.select()}
            aria-describedby="new-key-value-note"
            className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-zinc-50 px-2 py-1.5 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
          />
          <Button type="button" onClick={() => void copy()} aria-label={`Copy the value of ${name}`}>
            {copied === "yes" ? <Check aria-hidden className="h-4 w-4" /> : <Copy aria-hidden className="h-4 w-4" />}
            {copied === "yes" ? "Copied" : "Copy"}
          </Button>
        </div>
        <span id="new-key-value-note" className={`text-xs ${copied === "failed" ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}`} role={copied === "failed" ? "alert" : undefined}>
          {copied === "failed"
            ? "This browser would not copy from this page; the value is selected: press Ctrl+C (or Cmd+C) to copy it."
            : "This value will not be shown again: the studio keeps only a hash of it. Lost, it cannot be recovered; revoke the key and make a new one."}
        </span>
      </div>
      <div className="flex justify-end">
        <Button type="button" variant="primary" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
