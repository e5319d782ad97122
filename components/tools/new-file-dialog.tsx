"use client";
// "New tool file": a name checked as you type (R-file-module-name), then the editor opens.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { fileNameProblem } from "@/server/tree/names";

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
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">File name</span>
          <input
            autoFocus
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="weather.py"
            aria-invalid={!!problem}
            aria-describedby="new-file-problem"
            className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 font-mono outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700"
          />
        </label>
        <p id="new-file-problem" role={problem || create.error ? "alert" : undefined} className="min-h-5 text-sm text-red-600">
          {problem ?? errorSentence(create.error) ?? ""}
        </p>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={!fileName || !!problem || create.isPending}>
            {create.isPending ? "Creating…" : "Create"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
