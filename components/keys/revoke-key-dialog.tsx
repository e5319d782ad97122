"use client";
// "Revoke": a confirmation naming the key and what stops working. It holds from the program's next request.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

export function RevokeKeyDialog({ apiKey, onClose }: { apiKey: { id: string; name: string; prefix: string } | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions());
  const name = apiKey?.name ?? "";

  function close() {
    revoke.reset();
    onClose();
  }

  return (
    <ConfirmDialog
      open={apiKey !== null}
      onCancel={close}
      title={`Revoke ${name}?`}
      description={`Every program using ${name} (${apiKey?.prefix ?? ""}…) is refused from its next request on. A revoked key cannot be used again; its runs stay in Runs under its name.`}
      error={errorSentence(revoke.error)}
      pending={revoke.isPending}
      confirmLabel={`Revoke ${name}`}
      busyLabel="Revoking…"
      onConfirm={() =>
        revoke.mutate(
          { id: apiKey!.id },
          {
            onSuccess: async () => {
              close();
              await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
            },
          },
        )
      }
    />
  );
}
