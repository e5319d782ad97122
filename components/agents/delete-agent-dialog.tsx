"use client";
// "Delete": a confirmation naming the agent and what goes with it (every saved version). Refusals show here.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

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
    <Dialog
      open={agent !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={`Delete ${name}?`}
      description={`${name} and its ${agent?.version === 1 ? "one saved version" : `${agent?.version ?? 0} saved versions`} are deleted for good; export it first if you may want it back.`}
    >
      {remove.error ? (
        <p role="alert" className="mb-3 text-sm text-red-600">
          {remove.error.message}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" onClick={close}>
          Cancel
        </Button>
        <Button
          type="button"
          variant="danger"
          disabled={remove.isPending || !agent}
          onClick={() =>
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
        >
          {remove.isPending ? "Deleting…" : `Delete ${name}`}
        </Button>
      </div>
    </Dialog>
  );
}
