"use client";
// An OAuth server's sign-in on its row (R-mcp-oauth-connect): who signed in and how the last Connect went under the
// status, and Connect (which sends this browser to the server's consent page) and Disconnect among the actions.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Unplug } from "lucide-react";
import { useState } from "react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Time } from "@/components/ui/time";
import type { ServerRow } from "./types";

/** Under the status: "Signed in by Ada, …", and the last Connect's outcome when it went wrong and the status does not say so. */
export function SignInLine({ server }: { server: ServerRow }) {
  const signIn = server.signIn;
  if (!signIn) return null;
  const outcome = signIn.outcome && !signIn.outcomeOk && signIn.outcome !== server.status.sentence ? signIn.outcome : null;
  return (
    <div className="mt-1 flex max-w-xs flex-col gap-0.5 text-xs">
      {signIn.signedIn && signIn.signedInAt ? (
        <span className="text-zinc-500 dark:text-zinc-400">
          Signed in{signIn.signedInBy ? ` by ${signIn.signedInBy}` : ""}, <Time at={signIn.signedInAt} />
          {signIn.refreshedAt ? (
            <>
              {" "}
              (renewed <Time at={signIn.refreshedAt} />)
            </>
          ) : null}
        </span>
      ) : null}
      {outcome ? <span className="text-red-700 dark:text-red-400">{outcome}</span> : null}
    </div>
  );
}

/** Connect and, once signed in, Disconnect; a refusal is said under them, on the row. */
export function SignInActions({ server }: { server: ServerRow }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const connect = useMutation(trpc.mcpServers.connect.mutationOptions({ onSuccess: ({ url }) => window.location.assign(url) }));
  const disconnect = useMutation(
    trpc.mcpServers.disconnect.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        await queryClient.invalidateQueries({ queryKey: trpc.mcpServers.list.queryKey() });
      },
    }),
  );
  if (!server.signIn) return null;
  const signedIn = server.signIn.signedIn;
  const label = signedIn ? "Sign in again" : "Connect";
  return (
    <>
      <Button size="sm" variant={signedIn ? "ghost" : "primary"} aria-label={`${label} to ${server.name}`} disabled={connect.isPending} onClick={() => connect.mutate({ id: server.id })}>
        <KeyRound aria-hidden className="h-3.5 w-3.5" /> {connect.isPending ? "Opening sign-in…" : label}
      </Button>
      {signedIn ? (
        <Button size="sm" variant="ghost" aria-label={`Disconnect ${server.name}`} onClick={() => setConfirming(true)}>
          <Unplug aria-hidden className="h-3.5 w-3.5" /> Disconnect
        </Button>
      ) : (
        <span />
      )}
      {connect.error ? (
        <p role="alert" className="col-span-2 max-w-[14rem] text-right text-xs text-red-600">
          {errorSentence(connect.error)}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onCancel={() => {
          disconnect.reset();
          setConfirming(false);
        }}
        title={`Disconnect ${server.name}?`}
        description={`The studio forgets its sign-in to ${server.name}: agents that use it${server.agents.length ? ` (${server.agents.map((a) => a.name).join(", ")})` : ""} get none of its tools until an admin presses Connect again.`}
        error={errorSentence(disconnect.error)}
        pending={disconnect.isPending}
        confirmLabel={`Disconnect ${server.name}`}
        busyLabel="Disconnecting…"
        onConfirm={() => disconnect.mutate({ id: server.id })}
      />
    </>
  );
}
