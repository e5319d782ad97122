"use client";
// Make a connection: an agent's own provider, address and key become a connection by the name given here, and the
// agent then names it. Opened from the Models page's list of such agents and from the agent's own Model section.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { errorSentence, refusalOf } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { suggestedName } from "./connection-form";

export type AdoptedAgent = { agentId: string; agentName: string; provider: string; baseUrl: string | null };

export type Adopted = { connection: string; agents: string[] };

function AdoptForm({ agent, onClose, onAdopted }: { agent: AdoptedAgent; onClose: () => void; onAdopted?: (made: Adopted) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(() => suggestedName(agent.provider, agent.baseUrl));
  const adopt = useMutation(trpc.models.adopt.mutationOptions());
  const issue = refusalOf(adopt.error).issues.find((i) => i.path === "name")?.message ?? null;

  function submit(event: FormEvent) {
    event.preventDefault();
    adopt.mutate(
      { agentId: agent.agentId, name: name.trim() },
      {
        onSuccess: async (made) => {
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: trpc.models.list.queryKey() }),
            queryClient.invalidateQueries({ queryKey: trpc.models.inline.queryKey() }),
            queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() }),
          ]);
          onAdopted?.(made);
          onClose();
        },
      },
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-2" autoComplete="off" noValidate>
      <Field
        id="adopt-name"
        label="Connection name"
        autoFocus
        required
        spellCheck={false}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={issue ?? (adopt.error ? errorSentence(adopt.error) : null)}
        hint="Lower-case letters, digits and dashes; builders pick the connection by this name."
      />
      <DialogActions onCancel={onClose} label="Make the connection" busyLabel="Making it…" busy={adopt.isPending} disabled={!name.trim()} className="mt-2" />
    </form>
  );
}

export function AdoptDialog({ agent, onClose, onAdopted }: { agent: AdoptedAgent | null; onClose: () => void; onAdopted?: (made: Adopted) => void }) {
  return (
    <Dialog
      open={agent !== null}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={agent ? `Make a connection from ${agent.agentName}` : "Make a connection"}
      description="The agent's provider, address and key become a connection other agents can pick. It, and every agent with the same provider, address and key, then uses the connection by name, each saved as a new version."
    >
      {agent ? <AdoptForm key={agent.agentId} agent={agent} onClose={onClose} onAdopted={onAdopted} /> : null}
    </Dialog>
  );
}
