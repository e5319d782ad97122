"use client";
// A webhook's address, the one time it is shown (R-trigger-webhook-token): read-only, selectable, copied with one
// click, and a line saying it will not be shown again. It lives only in the section's state.
import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

export function TriggersAddress({ url, onDone }: { url: string; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("yes");
    } catch {
      // A page served over plain http to another machine has no clipboard: the field is selected for Ctrl+C instead.
      (document.getElementById("webhook-address") as HTMLInputElement | null)?.select();
      setCopied("failed");
    }
  }

  return (
    <div className="flex flex-col gap-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40">
      <label htmlFor="webhook-address" className="font-medium">
        Webhook address
      </label>
      <div className="flex gap-2">
        <input
          id="webhook-address"
          readOnly
          value={url}
          spellCheck={false}
          onFocus={(event) => event.target.select()}
          aria-describedby="webhook-address-note"
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1.5 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
        />
        <Button type="button" onClick={() => void copy()} aria-label="Copy the webhook address">
          {copied === "yes" ? <Check aria-hidden className="h-4 w-4" /> : <Copy aria-hidden className="h-4 w-4" />}
          {copied === "yes" ? "Copied" : "Copy"}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
      <span id="webhook-address-note" className={`text-xs ${copied === "failed" ? "text-red-600" : "text-zinc-600 dark:text-zinc-400"}`} role={copied === "failed" ? "alert" : undefined}>
        {copied === "failed"
          ? "This browser would not copy from this page; the address is selected: press Ctrl+C (or Cmd+C) to copy it."
          : "Copy it now: it will not be shown again, since the studio keeps only a hash of its token. Lost, Rotate gives a new one."}
      </span>
    </div>
  );
}
