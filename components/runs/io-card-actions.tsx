"use client";
// The buttons of a decision a running tool asked through ctx.io (R-tool-io-cards): a plan is approved or rejected
// with a note the tool reads; a shell command allowed or denied; a write allowed always for its path, once, or denied.
import { useMutation } from "@tanstack/react-query";
import { Check, CheckCheck, X } from "lucide-react";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import type { IoCard } from "@/server/runtime/shapes";

type Kind = Exclude<IoCard["kind"], "ask">;

const LABELS: Record<Kind, string> = { plan: "Approve the plan?", shell: "Allow this command?", write: "Allow this write?" };

export function IoCardActions({ runId, callId, kind }: { runId: string; callId: string; kind: Kind }) {
  const trpc = useTRPC();
  const decide = useMutation(trpc.runs.decide.mutationOptions());
  const [note, setNote] = useState("");
  const busy = decide.isPending;
  const send = (decision: "once" | "always" | "deny") =>
    decide.mutate({ runId, callId, decision, ...(kind === "plan" && note.trim() ? { note: note.trim() } : {}) });
  return (
    <div role="group" aria-label={LABELS[kind]} className="flex flex-col gap-2">
      {kind === "plan" ? (
        <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
          Note for the tool (optional)
          <textarea
            value={note}
            onChange={(event) => setNote(event.target.value)}
            rows={2}
            maxLength={10_000}
            placeholder="What to change, or why not"
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm outline-none focus:border-accent dark:border-zinc-700 dark:bg-zinc-900"
          />
        </label>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        {kind === "write" ? (
          <>
            <Button size="sm" variant="primary" disabled={busy} onClick={() => send("always")} title="Allow this and every later write of this path in this run">
              <CheckCheck aria-hidden className="h-3.5 w-3.5" /> Allow always for this path
            </Button>
            <Button size="sm" disabled={busy} onClick={() => send("once")}>
              <Check aria-hidden className="h-3.5 w-3.5" /> Allow once
            </Button>
          </>
        ) : (
          <Button size="sm" variant="primary" disabled={busy} onClick={() => send("once")}>
            <Check aria-hidden className="h-3.5 w-3.5" /> {kind === "plan" ? "Approve" : "Allow"}
          </Button>
        )}
        <Button size="sm" variant="ghost" disabled={busy} onClick={() => send("deny")}>
          <X aria-hidden className="h-3.5 w-3.5" /> {kind === "plan" ? "Reject" : "Deny"}
        </Button>
      </div>
      <ErrorText error={decide.error} className="text-xs text-red-600" />
    </div>
  );
}
