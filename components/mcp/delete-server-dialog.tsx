"use client";
// Delete: a confirmation naming what goes (the row's command or URL, its environment or headers; its program is
// stopped). The studio refuses while an agent names the server, and its sentence naming them shows here.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ServerRow } from "./types";

function lost(server: ServerRow): string {
  const t = server.transport;
  if (t.type === "stdio") {
    const env = Object.keys(t.env).length;
    return `its command (${t.command}), ${t.args.length} argument${t.args.length === 1 ? "" : "s"} and ${env} environment variable${env === 1 ? "" : "s"}`;
  }
  const headers = Object.keys(t.headers).length;
  return `its URL (${t.url}) and ${headers} header${headers === 1 ? "" : "s"}`;
}

export function DeleteServerDialog({ server, onClose }: { server: ServerRow | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.mcpServers.remove.mutationOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.mcpServers.list.queryKey() });

  function close() {
    remove.reset();
    onClose();
  }

  return (
    <ConfirmDialog
      open={server !== null}
      onCancel={close}
      title={`Delete ${server?.name ?? ""}?`}
      description={
        server
          ? `The server's row goes for good: ${lost(server)}. A running program is stopped. The secrets it names are kept.`
          : undefined
      }
      error={errorSentence(remove.error)}
      pending={remove.isPending}
      confirmLabel={`Delete ${server?.name ?? ""}`}
      onConfirm={() =>
        server &&
        remove.mutate(
          { id: server.id },
          {
            onSuccess: async () => {
              close();
              await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: trpc.mcpServers.names.queryKey() })]);
            },
            // The row's "used by" may be stale: refresh it beside the refusal.
            onError: () => refresh(),
          },
        )
      }
    >
      {server && server.agents.length > 0 ? (
        <div className="mb-3 text-sm">
          <p className="font-medium">Used by:</p>
          <ul className="mt-1 list-disc pl-5 text-zinc-600 dark:text-zinc-400">
            {server.agents.map((agent) => (
              <li key={agent.id}>{agent.name}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </ConfirmDialog>
  );
}
