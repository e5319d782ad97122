"use client";
// "New secret": a name checked as you type, the value in a password field, a description. The value lives in
// this form only until it is saved (or the dialog closes): then the field is emptied and nothing can show it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { secretNameProblem } from "@/server/secrets/names";

export function NewSecretDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [description, setDescription] = useState("");
  const problem = name ? secretNameProblem(name) : null;
  const create = useMutation(trpc.secrets.create.mutationOptions());

  function close() {
    setName("");
    setValue("");
    setDescription("");
    create.reset();
    onOpenChange(false);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name || problem || !value) return;
    create.mutate(
      { name, value, description },
      {
        onSuccess: async () => {
          close();
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: trpc.secrets.list.queryKey() }),
            queryClient.invalidateQueries({ queryKey: trpc.secrets.names.queryKey() }),
          ]);
        },
        // A refused save keeps the name and description, but never the value longer than needed.
        onError: () => setValue(""),
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="New secret"
      description="Saved encrypted. After this, no one can see the value again — not you, not the model; you can only rotate it."
    >
      <form onSubmit={submit} className="flex flex-col gap-2" autoComplete="off">
        <Field
          id="secret-name"
          label="Name"
          autoFocus
          required
          spellCheck={false}
          value={name}
          onChange={(e) => setName(e.target.value.toUpperCase())}
          placeholder="TICKETS_TOKEN"
          error={problem}
          hint="Capital letters, digits and underscores. Settings refer to it as ${NAME}."
        />
        <Field
          id="secret-value"
          label="Value"
          type="password"
          autoComplete="off"
          required
          value={value}
          onChange={(e) => setValue(e.target.value)}
          hint="Paste it once; it cannot be shown after saving."
        />
        <Field
          id="secret-description"
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          placeholder="What it opens, and where to get a new one"
          hint="Builders see this beside the name."
        />
        <ErrorText error={create.error} />
        <DialogActions onCancel={close} label="Save secret" busyLabel="Saving…" busy={create.isPending} disabled={!name || !!problem || !value} className="mt-2" />
      </form>
    </Dialog>
  );
}
