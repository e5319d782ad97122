"use client";
// "Import": an exported agent, pasted or picked as a .json file, becomes a new agent. A refusal names every
// problem here in the dialog, each with where it is, so the file can be fixed and tried again.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ChangeEvent, type FormEvent } from "react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { placeOf } from "./draft";
import { problemsOf } from "./errors";

/** The entries of the pasted text, if it parses, so a problem's place can name its source. */
function entriesIn(json: string): string[] {
  try {
    const tools = (JSON.parse(json) as { tools?: unknown }).tools;
    return Array.isArray(tools) ? tools.map((t) => String((t as { entry?: unknown })?.entry ?? "")) : [];
  } catch {
    return [];
  }
}

export function ImportAgentDialog({
  open,
  onOpenChange,
  onImported,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onImported: (agent: { id: string; name: string }, renamedFrom: string | null) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sources = useQuery(trpc.agents.sources.queryOptions());
  const [json, setJson] = useState("");
  const [fileError, setFileError] = useState<string | null>(null);
  const importAgent = useMutation(trpc.agents.import.mutationOptions());
  const problems = problemsOf(importAgent.error);

  function close() {
    setJson("");
    setFileError(null);
    importAgent.reset();
    onOpenChange(false);
  }

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setFileError(null);
    importAgent.reset();
    if (file.size > 1_000_000) {
      setFileError(`${file.name} is larger than 1 MB, which no exported agent is; pick the file the studio exported.`);
      return;
    }
    setJson(await file.text());
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    importAgent.mutate(
      { json },
      {
        onSuccess: async ({ agent, renamedFrom }) => {
          await queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() });
          onImported({ id: agent.id, name: agent.name }, renamedFrom);
          close();
        },
      },
    );
  }

  const entries = entriesIn(json);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Import an agent"
      description="Pick a file another studio (or this one) exported, or paste its text. It becomes a new agent; secrets are matched by name."
    >
      <form onSubmit={submit} className="flex flex-col gap-3">
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="import-file" className="font-medium">
            Agent file
          </label>
          <input
            id="import-file"
            type="file"
            accept=".json,application/json"
            onChange={pick}
            className="text-xs file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-2 file:py-1 file:text-xs file:font-medium dark:file:border-zinc-700 dark:file:bg-zinc-900"
          />
          {fileError ? <span className="text-xs text-red-600">{fileError}</span> : null}
        </div>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="import-json" className="font-medium">
            Or paste its text
          </label>
          <textarea
            id="import-json"
            rows={8}
            value={json}
            spellCheck={false}
            onChange={(e) => {
              setJson(e.target.value);
              importAgent.reset();
            }}
            placeholder='{"name": "triage", "model": {…}, "tools": […]}'
            className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 font-mono text-xs outline-none focus:border-accent dark:border-zinc-700"
          />
        </div>
        {importAgent.error ? (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
            {problems.length > 0 ? (
              <>
                <p className="font-medium">
                  This file cannot be imported until {problems.length === 1 ? "this is" : `these ${problems.length} are`} fixed:
                </p>
                <ul className="mt-1 flex flex-col gap-1 text-xs">
                  {problems.map((p, i) => (
                    <li key={i}>
                      {p.path ? <span className="font-medium">{placeOf(p.path, entries, sources.data?.sources ?? [])}: </span> : null}
                      {p.message}
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p>{errorSentence(importAgent.error)}</p>
            )}
          </div>
        ) : null}
        <DialogActions onCancel={close} label="Import agent" busyLabel="Importing…" busy={importAgent.isPending} disabled={!json.trim()} />
      </form>
    </Dialog>
  );
}
