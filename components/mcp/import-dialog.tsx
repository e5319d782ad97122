"use client";
// Import mcp.json: the `{"mcpServers": {...}}` text Claude Desktop, Cursor and VS Code keep, pasted whole. The
// studio takes every server in it or none, and says why here: where the text stops parsing (line and column),
// each entry's fault at its place in the file, a token written out refused with what to write instead.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { errorSentence, problemsIn } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { TextArea } from "./text-area";

const EXAMPLE = `{
  "mcpServers": {
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] }
  }
}`;

export function ImportDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (names: string[]) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const importJson = useMutation(trpc.mcpServers.import.mutationOptions());
  const problems = problemsIn<{ path: string; message: string }>(importJson.error, "problems", "INVALID_MCP_SERVER");

  function close() {
    setText("");
    importJson.reset();
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    importJson.mutate(
      { text },
      {
        onSuccess: async (rows) => {
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: trpc.mcpServers.list.queryKey() }),
            queryClient.invalidateQueries({ queryKey: trpc.mcpServers.names.queryKey() }),
          ]);
          onImported(rows.map((row) => row.name));
          close();
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? undefined : close())}
      size="wide"
      title="Import mcp.json"
      description="Paste the whole file. Each server in it becomes a row; a token or key must be a secret, written ${NAME}."
    >
      <form onSubmit={submit} className="flex flex-col gap-3">
        <TextArea
          id="mcp-import-json"
          label="mcp.json"
          rows={12}
          value={text}
          onChange={(next) => {
            setText(next);
            importJson.reset();
          }}
          placeholder={EXAMPLE}
          hint="Ctrl+Enter imports. Nothing is saved unless every server in the file can be."
        />
        {importJson.error ? (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
            {problems.length > 1 ? (
              <>
                <p className="font-medium">Nothing was imported; fix these {problems.length} first:</p>
                <ul className="mt-1 flex list-disc flex-col gap-1 pl-5 text-xs">
                  {problems.map((p, i) => (
                    <li key={i}>
                      {p.path ? <code className="font-mono font-medium">{p.path}: </code> : null}
                      {p.message}
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p>{errorSentence(importJson.error)}</p>
            )}
          </div>
        ) : null}
        <DialogActions onCancel={close} label="Import" busyLabel="Checking and importing…" busy={importJson.isPending} disabled={!text.trim()} />
      </form>
    </Dialog>
  );
}
