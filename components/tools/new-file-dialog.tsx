"use client";
// "New tool file": a name checked as you type (R-file-module-name), then the editor opens.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { fileNameProblem } from "@/server/tree/names";
import { FileNameField } from "./file-name-field";

export function NewFileDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the new file opens; by default the editor page is navigated to. */
  onCreated?: (path: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState("");
  const fileName = name.trim() && !name.trim().endsWith(".py") ? `${name.trim()}.py` : name.trim();
  const problem = fileName ? fileNameProblem(fileName) : null;
  const create = useMutation(
    trpc.tools.file.create.mutationOptions({
      onSuccess: async (file) => {
        await queryClient.invalidateQueries({ queryKey: trpc.tools.files.queryKey() });
        onOpenChange(false);
        setName("");
        if (onCreated) onCreated(file.path);
        else router.push(`/tools/${encodeURIComponent(file.path)}`);
      },
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!fileName || problem) return;
    create.mutate({ path: fileName });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New tool file"
      description="One Python file is one group of tools; its name becomes the first part of every tool name in it."
    >
      <form onSubmit={submit} className="flex flex-col gap-3">
        <FileNameField
          id="new-file"
          label="File name"
          value={name}
          onChange={setName}
          placeholder="weather.py"
          problem={problem}
          refusal={errorSentence(create.error)}
        />
        <DialogActions onCancel={() => onOpenChange(false)} label="Create" busyLabel="Creating…" busy={create.isPending} disabled={!fileName || !!problem} />
      </form>
    </Dialog>
  );
}
