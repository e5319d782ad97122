"use client";
// Copy for one text of "Use from code": says Copied when the clipboard took it, and where the page may not reach the
// clipboard (plain http to another machine) says to select the text instead, beside the button.
import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      {state === "failed" ? (
        <span role="alert" className="text-xs text-red-600">
          This browser would not copy from this page; select the text and press Ctrl+C (or Cmd+C).
        </span>
      ) : null}
      <Button type="button" size="sm" variant="ghost" aria-label={label} onClick={() => void copy()}>
        {state === "copied" ? <Check aria-hidden className="h-3.5 w-3.5" /> : <Copy aria-hidden className="h-3.5 w-3.5" />}
        {state === "copied" ? "Copied" : "Copy"}
      </Button>
    </span>
  );
}

/** A block of code or configuration, read as written, with its Copy; `label` names it to screen readers and Copy. */
export function CodeBlock({ title, label, text }: { title: string; label: string; text: string }) {
  return (
    <div className="rounded-md border border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-950">
      <div className="flex items-center justify-between border-b border-zinc-200 px-3 py-1 dark:border-zinc-800">
        <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{title}</span>
        <CopyButton text={text} label={`Copy ${label}`} />
      </div>
      <pre aria-label={label} tabIndex={0} className="overflow-x-auto px-3 py-2 font-mono text-xs leading-relaxed">
        <code>{text}</code>
      </pre>
    </div>
  );
}
