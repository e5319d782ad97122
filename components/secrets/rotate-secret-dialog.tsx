"use client";
// "Rotate": a new value for a secret, in a password field emptied once saved. Every setting that names the
// secret uses the new value from its next call; the old one is gone.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";

export function RotateSecretDialog({ name, onClose }: { name: string | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState("");
  const rotate = useMutation(trpc.secrets.rotate.mutationOptions());

  function close() {
    setValue("");
    rotate.reset();
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name || !value) return;
    rotate.mutate(
      { name, value },
      {
        onSuccess: async () => {
          close();
          await queryClient.invalidateQueries({ queryKey: trpc.secrets.list.queryKey() });
        },
        onError: () => setValue(""),
      },
    );
  }

  return (
    <Dialog
      open={name !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={`Rotate ${name ?? ""}`}
      description={`The new value replaces the old one everywhere ${name ?? "it"} is used, from the next call on. The old value cannot be shown or restored.`}
    >
      <form onSubmit={submit} className="flex flex-col gap-2" autoComplete="off">
        <Field
          id="secret-new-value"
          label="New value"
          type="password"
          autoComplete="off"
          autoFocus
          required
          value={value}
          onChange={(e) => setValue(e.target.value)}
          hint="Paste it once; it cannot be shown after saving."
        />
        <ErrorText error={rotate.error} />
        <DialogActions onCancel={close} label="Save new value" busyLabel="Saving…" busy={rotate.isPending} disabled={!value} className="mt-2" />
      </form>
    </Dialog>
  );
}
