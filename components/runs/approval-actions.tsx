"use client";
// The answers to a call that asks first: approve it once, approve every call of it in this run, or deny it. A call
// the call hook asked about (having read its arguments) can only be approved once.
import { useMutation } from "@tanstack/react-query";
import { Check, CheckCheck, X } from "lucide-react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";

export function ApprovalActions({ runId, callId, title, grantable = true }: { runId: string; callId: string; title: string; grantable?: boolean }) {
  const trpc = useTRPC();
  const decide = useMutation(trpc.runs.decide.mutationOptions());
  const send = (decision: "once" | "always" | "deny") => decide.mutate({ runId, callId, decision });
  return (
    <div role="group" aria-label={`Approve ${title}?`} className="flex flex-wrap items-center gap-2">
      <Button size="sm" variant="primary" disabled={decide.isPending} onClick={() => send("once")}>
        <Check aria-hidden className="h-3.5 w-3.5" /> Approve
      </Button>
      {grantable ? (
        <Button size="sm" disabled={decide.isPending} onClick={() => send("always")} title="Approve this and every later call of this operation in this run">
          <CheckCheck aria-hidden className="h-3.5 w-3.5" /> Always in this run
        </Button>
      ) : null}
      <Button size="sm" variant="ghost" disabled={decide.isPending} onClick={() => send("deny")}>
        <X aria-hidden className="h-3.5 w-3.5" /> Deny
      </Button>
      <ErrorText error={decide.error} className="basis-full text-xs text-red-600" />
    </div>
  );
}
