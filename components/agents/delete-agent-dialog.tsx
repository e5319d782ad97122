"use client";
// "Delete": a confirmation naming the agent and what goes with it (every saved version). Refusals show here.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

export function DeleteAgentDialog({ agent, onClose }: { agent: { id: string; name: string; version: number } | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.agents.remove.mutationOptions());
  const name = agent?.name ?? "";

  function close() {
    remove.reset();
    onClose();
  }

  return (
    <ConfirmDialog
      open={agent !== null}
      onCancel={close}
      title={`Delete ${name}?`}
      description={`${name} and its ${agent?.version === 1 ? "one saved version" : `${agent?.version ?? 0} saved versions`} are deleted for good; export it first if you may want it back.`}
      error={errorSentence(remove.error)}
      pending={remove.isPending || !agent}
      confirmLabel={`Delete ${name}`}
      onConfirm={() =>
        agent &&
        remove.mutate(
          { id: agent.id },
          {
            onSuccess: async () => {
              close();
              await queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() });
            },
          },
        )
      }
    />
  );
}
