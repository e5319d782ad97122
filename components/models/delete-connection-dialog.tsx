"use client";
// Delete: a confirmation naming what goes. The studio refuses while an agent uses the connection, and its sentence
// naming them stays in the dialog.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { Connection } from "./types";

export function DeleteConnectionDialog({ row, onClose }: { row: Connection | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.models.remove.mutationOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.models.list.queryKey() });

  function close() {
    remove.reset();
    onClose();
  }

  return (
    <ConfirmDialog
      open={row !== null}
      onCancel={close}
      title={`Delete ${row?.name ?? ""}?`}
      description={row ? `The connection goes for good: its provider, address${row.apiKey ? ", the key it names" : ""} and the models it offers. The secret itself is kept.` : undefined}
      error={errorSentence(remove.error)}
      pending={remove.isPending}
      confirmLabel={`Delete ${row?.name ?? ""}`}
      onConfirm={() =>
        row &&
        remove.mutate(
          { name: row.name },
          {
            onSuccess: async () => {
              close();
              await refresh();
            },
            // The row's "used by" may be stale: refresh it beside the refusal.
            onError: () => refresh(),
          },
        )
      }
    >
      {row && row.usedBy.length > 0 ? (
        <div className="mb-3 text-sm">
          <p>Used by, and so kept until they pick another:</p>
          <ul className="mt-1 list-disc pl-5">
            {row.usedBy.map((agent) => (
              <li key={agent.id}>
                <Link href={`/agents/${agent.id}`} className="text-accent dark:text-indigo-400 hover:underline">
                  {agent.name}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </ConfirmDialog>
  );
}
