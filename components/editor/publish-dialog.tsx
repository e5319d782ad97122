"use client";
// "Publish": a message, then the whole tree is checked in a fresh interpreter and committed as one version.
// A refusal lists each failing file with its first error here in the dialog, where it can be read and acted on.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { errorSentence, problemsIn, refusalOf } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";

/** A file that keeps the tree from publishing, with its first error. */
type Problem = { path: string; line: number | null; message: string };

export function PublishDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState("");
  const publish = useMutation(
    trpc.tools.history.publish.mutationOptions({
      onSuccess: async () => {
        setMessage("");
        await queryClient.invalidateQueries({ queryKey: trpc.tools.history.pathKey() });
      },
    }),
  );
  const { reason } = refusalOf(publish.error);
  const problems = problemsIn<Problem>(publish.error, "errors", "TREE_HAS_ERRORS");

  function changeOpen(next: boolean) {
    // A closed dialog starts clean next time; a publish still running keeps its answer for when it reopens.
    if (!next && !publish.isPending) publish.reset();
    onOpenChange(next);
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!message.trim() || publish.isPending) return;
    publish.mutate({ message });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) submit();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={changeOpen}
      title="Publish the tool tree"
      description="Every file is imported in a fresh interpreter; with no errors, the whole tree is saved as one version you can compare with later."
    >
      {publish.data ? (
        <div className="flex flex-col gap-3">
          <p role="status" className="text-sm">
            Published <span className="font-mono font-semibold">{publish.data.commit.slice(0, 7)}</span> —{" "}
            {publish.data.files.length === 1 ? "1 file" : `${publish.data.files.length} files`}.
            {publish.data.version !== null ? ` This is version ${publish.data.version}: every run but a developer's in the playground uses it from now on.` : null}
          </p>
          <div className="flex justify-end">
            <Button variant="primary" onClick={() => changeOpen(false)}>
              Done
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-3">
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">What changed</span>
            <textarea
              autoFocus
              required
              rows={3}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              onKeyDown={onKeyDown}
              placeholder="notes: write takes a list of tags"
              className="resize-y rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 outline-none focus:border-accent dark:border-zinc-700"
            />
          </label>
          {publish.isPending ? (
            <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
              Checking every file in a fresh interpreter…
            </p>
          ) : publish.error ? (
            <div
              role={reason === "NOTHING_CHANGED" ? "status" : "alert"}
              className={reason === "NOTHING_CHANGED" ? "text-sm text-zinc-600 dark:text-zinc-400" : "text-sm text-red-700 dark:text-red-300"}
            >
              <p>{errorSentence(publish.error)}</p>
              {problems.length > 0 ? (
                <ul aria-label="Files with errors" className="mt-2 flex max-h-64 flex-col gap-1.5 overflow-auto">
                  {problems.map((problem) => (
                    <li key={problem.path} className="rounded-md bg-red-50 px-2 py-1.5 dark:bg-red-950">
                      <span className="font-mono font-semibold">{problem.path}</span>
                      {problem.line ? <span className="text-red-600 dark:text-red-400">, line {problem.line}</span> : null}
                      <span className="mt-0.5 block whitespace-pre-wrap font-mono text-xs">{problem.message}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          <DialogActions onCancel={() => changeOpen(false)} label="Publish" busyLabel="Checking…" busy={publish.isPending} disabled={!message.trim()} />
        </form>
      )}
    </Dialog>
  );
}
