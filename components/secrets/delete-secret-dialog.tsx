"use client";
// "Delete": a confirmation naming the secret and what uses it. The server refuses while anything references
// it, and its sentence (what uses it, what to do) shows here.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

export function DeleteSecretDialog({
  secret,
  onClose,
}: {
  secret: { name: string; references: { id: string; label: string }[] } | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.secrets.remove.mutationOptions());
  const name = secret?.name ?? "";

  function close() {
    remove.reset();
    onClose();
  }

  return (
    <ConfirmDialog
      open={secret !== null}
      onCancel={close}
      title={`Delete ${name}?`}
      description={`The value of ${name} is erased for good: nothing can use it afterwards, and it cannot be restored.`}
      error={errorSentence(remove.error)}
      pending={remove.isPending}
      confirmLabel={`Delete ${name}`}
      onConfirm={() =>
        remove.mutate(
          { name },
          {
            onSuccess: async () => {
              close();
              await Promise.all([
                queryClient.invalidateQueries({ queryKey: trpc.secrets.list.queryKey() }),
                queryClient.invalidateQueries({ queryKey: trpc.secrets.names.queryKey() }),
              ]);
            },
            // The table's "where used" may be stale: refresh it beside the refusal.
            onError: () => queryClient.invalidateQueries({ queryKey: trpc.secrets.list.queryKey() }),
          },
        )
      }
    >
      {secret && secret.references.length > 0 ? (
        <div className="mb-3 text-sm">
          <p className="font-medium">Still used by:</p>
          <ul className="mt-1 list-disc pl-5 text-zinc-600 dark:text-zinc-400">
            {secret.references.map((reference) => (
              <li key={reference.id}>{reference.label}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </ConfirmDialog>
  );
}
