"use client";
// A call that may have run (R-journal-manual): its studio process stopped while it ran, or it timed out, and its tool
// is not safe to run again by itself. The person checks, then runs it again, marks it as done with what it answered,
// or fails it. Decided, the card says what was chosen and by whom.
import { useMutation } from "@tanstack/react-query";
import { Check, RotateCcw, X } from "lucide-react";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import type { Call } from "./trace";

type Recovery = NonNullable<Call["recovery"]>;

const WHY: Record<Recovery["why"], string> = {
  restarted: "This call was running when the studio stopped, so it may have run.",
  timeout: "This call timed out, so it may have partly run.",
};

const DONE: Record<NonNullable<Recovery["action"]>, string> = { again: "Run again", done: "Marked as done", fail: "Failed" };

export function RecoveryBox({ runId, callId, title, recovery }: { runId: string | null; callId: string; title: string; recovery: Recovery }) {
  if (recovery.action) {
    return (
      <div className="rounded-md bg-zinc-50 px-3 py-2 dark:bg-zinc-900">
        <p className="text-xs text-zinc-700 dark:text-zinc-300">
          {WHY[recovery.why]} {DONE[recovery.action]}
          {recovery.by?.name ? ` by ${recovery.by.name}` : ""}
          {recovery.text ? <>: “{recovery.text}”</> : "."}
        </p>
      </div>
    );
  }
  return (
    <div className="rounded-md bg-amber-50 px-3 py-2 dark:bg-amber-950/40">
      <p className="mb-2 text-xs text-amber-900 dark:text-amber-200">{WHY[recovery.why]} Check whether it took effect, then say what to do.</p>
      {runId ? <RecoveryActions runId={runId} callId={callId} title={title} /> : <p className="text-xs text-zinc-500 dark:text-zinc-400">Not decided.</p>}
    </div>
  );
}

function RecoveryActions({ runId, callId, title }: { runId: string; callId: string; title: string }) {
  const trpc = useTRPC();
  const recover = useMutation(trpc.runs.recover.mutationOptions());
  const [writing, setWriting] = useState<"done" | "fail" | null>(null);
  const [text, setText] = useState("");
  const send = (action: "again" | "done" | "fail") => recover.mutate({ runId, callId, action, ...(text.trim() ? { text: text.trim() } : {}) });
  return (
    <div role="group" aria-label={`What happened to ${title}?`} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" variant="primary" disabled={recover.isPending} onClick={() => send("again")}>
          <RotateCcw aria-hidden className="h-3.5 w-3.5" /> Run again
        </Button>
        <Button size="sm" disabled={recover.isPending} onClick={() => setWriting("done")} aria-pressed={writing === "done"}>
          <Check aria-hidden className="h-3.5 w-3.5" /> Mark as done
        </Button>
        <Button size="sm" variant="ghost" disabled={recover.isPending} onClick={() => setWriting("fail")} aria-pressed={writing === "fail"}>
          <X aria-hidden className="h-3.5 w-3.5" /> Fail it
        </Button>
      </div>
      {writing ? (
        <form
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (writing === "fail" || text.trim()) send(writing);
          }}
        >
          <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
            {writing === "done" ? "What it answered (the agent reads this as the call's result)" : "Why it failed (optional)"}
            <textarea
              value={text}
              onChange={(event) => setText(event.target.value)}
              rows={3}
              className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm outline-none focus:border-accent dark:border-zinc-700 dark:bg-zinc-900"
            />
          </label>
          <div>
            <Button type="submit" size="sm" variant="primary" disabled={recover.isPending || (writing === "done" && !text.trim())}>
              {writing === "done" ? "Mark as done" : "Fail it"}
            </Button>
          </div>
        </form>
      ) : null}
      <ErrorText error={recover.error} className="text-xs text-red-600" />
    </div>
  );
}
