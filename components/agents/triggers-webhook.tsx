"use client";
// The agent's webhook: made with one click, its address shown once (then only its first characters), Rotate and
// Remove after a confirmation naming what stops, its template, and whom its runs start as (R-trigger-run-as).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Webhook } from "lucide-react";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Time } from "@/components/ui/time";
import { TriggersAddress } from "./triggers-address";
import { TriggersTemplate } from "./triggers-template";

const origin = () => (typeof window === "undefined" ? "" : window.location.origin);

export function TriggersWebhook({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const webhook = useQuery(trpc.triggers.webhook.queryOptions({ agentId }));
  const [shown, setShown] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<"rotate" | "remove" | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.triggers.webhook.queryKey({ agentId }) });
  const made = { onSuccess: async ({ path }: { path: string }) => (setShown(origin() + path), setConfirming(null), await refresh()) };
  const create = useMutation(trpc.triggers.createWebhook.mutationOptions(made));
  const rotate = useMutation(trpc.triggers.rotateWebhook.mutationOptions(made));
  const remove = useMutation(trpc.triggers.removeWebhook.mutationOptions({ onSuccess: async () => (setShown(null), setConfirming(null), await refresh()) }));

  const hook = webhook.data;
  const live = hook ? `${origin()}/api/hooks/${agentId}/${hook.hint}…` : "";
  return (
    <div aria-labelledby="webhook-heading">
      <h3 id="webhook-heading" className="mb-2 flex items-center gap-1.5 text-sm font-medium">
        <Webhook aria-hidden className="h-4 w-4 text-zinc-500 dark:text-zinc-400" /> Webhook
      </h3>
      <ErrorText error={webhook.error} />
      {webhook.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading the webhook…</p> : null}
      {webhook.isSuccess && !hook ? (
        <div className="rounded-md border border-dashed border-zinc-300 p-4 text-sm dark:border-zinc-700">
          <p className="mb-3 text-zinc-600 dark:text-zinc-400">
            No webhook yet — Make a webhook gives this agent an address a program can POST to: each request starts a run whose message is the request&apos;s body.
          </p>
          <Button onClick={() => create.mutate({ agentId })} disabled={create.isPending}>
            {create.isPending ? "Making…" : "Make a webhook"}
          </Button>
          <ErrorText error={create.error} className="mt-2 text-sm text-red-600" />
        </div>
      ) : null}
      {hook ? (
        <div className="flex flex-col gap-3 text-sm">
          {shown ? (
            <TriggersAddress url={shown} onDone={() => setShown(null)} />
          ) : (
            <p>
              Address: <code className="break-all font-mono text-xs">{live}</code>
              <span className="block text-xs text-zinc-500 dark:text-zinc-400">The whole address was shown once, when the webhook was made or last rotated; Rotate gives a new one.</span>
            </p>
          )}
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            Runs start as {hook.runAs.name ?? "an account since removed"}, who {hook.rotatedAt ? "last rotated" : "made"} it
            {hook.lastUsedAt ? (
              <>
                {" "}
                · last used <Time at={hook.lastUsedAt} />
              </>
            ) : (
              " · not used yet"
            )}
            .
          </p>
          {!hook.runAs.active ? (
            <p role="status" className="text-xs text-amber-700 dark:text-amber-400">
              {hook.runAs.name ?? "That account"} can no longer sign in, so this webhook starts nothing: Rotate it to make its runs yours.
            </p>
          ) : null}
          <div className="flex gap-2">
            <Button size="sm" onClick={() => setConfirming("rotate")}>
              Rotate
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming("remove")}>
              Remove webhook
            </Button>
          </div>
          <TriggersTemplate agentId={agentId} saved={hook.template} />
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming === "rotate"}
        onCancel={() => (setConfirming(null), rotate.reset())}
        title="Rotate the webhook's address?"
        description={`Programs using the current address (${live}) are refused from their next request on. The new address is shown once.`}
        error={errorSentence(rotate.error)}
        pending={rotate.isPending}
        confirmLabel="Rotate address"
        busyLabel="Rotating…"
        onConfirm={() => rotate.mutate({ agentId })}
      />
      <ConfirmDialog
        open={confirming === "remove"}
        onCancel={() => (setConfirming(null), remove.reset())}
        title="Remove the webhook?"
        description={`Programs using its address (${live}) are refused from their next request on. The runs it started stay in Runs.`}
        error={errorSentence(remove.error)}
        pending={remove.isPending}
        confirmLabel="Remove webhook"
        busyLabel="Removing…"
        onConfirm={() => remove.mutate({ agentId })}
      />
    </div>
  );
}
