"use client";
// Try a server's tool by hand from its row: the form Try it makes from an input schema (here as the server sent it),
// Run (Ctrl+Enter) and Stop, then the answer as the model would read it. A tool its server marks destructive asks
// first, naming the tool and the server, before anything is sent.
import { Play, Square, TriangleAlert } from "lucide-react";
import { useMemo, useState, type KeyboardEvent } from "react";
import { fieldsOf, initialValues, schemaErrors, toArgs, type FormValues } from "@/components/editor/schema-form";
import { SchemaFields } from "@/components/editor/schema-fields";
import { refusalOf } from "@/components/trpc/errors";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TryResult } from "./try-result";
import { useTryRun } from "./try-run";
import type { ServerTool } from "./types";

/** Destructive as a run reads it: the server says so and does not also call it read-only. */
export function isDestructive(tool: Pick<ServerTool, "annotations">): boolean {
  return tool.annotations?.destructiveHint === true && tool.annotations?.readOnlyHint !== true;
}

export function TryDialog({
  serverId,
  serverName,
  tool,
  title,
  onClose,
}: {
  serverId: string;
  serverName: string;
  tool: ServerTool | null;
  /** What a person calls the tool (its title, else its name in words). */
  title: string;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={tool !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      size="wide"
      title={`Try ${title}`}
      description={tool ? `Calls ${tool.name} on ${serverName} now, as a run would, and shows what the model would read.` : undefined}
    >
      {tool ? <TryForm key={tool.name} serverId={serverId} serverName={serverName} tool={tool} onClose={onClose} /> : null}
    </Dialog>
  );
}

function TryForm({ serverId, serverName, tool, onClose }: { serverId: string; serverName: string; tool: ServerTool; onClose: () => void }) {
  const schema = useMemo(() => (tool.inputSchema ?? { type: "object" }) as Record<string, unknown>, [tool.inputSchema]);
  const fields = useMemo(() => fieldsOf(schema), [schema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<Record<string, unknown> | null>(null);
  const { run, start, stop, clear } = useTryRun(serverId);
  const destructive = isDestructive(tool);
  const asksConfirmation = refusalOf(run?.error).reason === "CONFIRM_DESTRUCTIVE";

  function submit() {
    const parsed = toArgs(fields, values);
    // The form's own sentences win over the schema validator's for the same field.
    const problems = { ...schemaErrors(schema, parsed.args), ...parsed.errors };
    setErrors(problems);
    if (Object.keys(problems).length > 0 || run?.running) return;
    if (destructive) return setConfirming(parsed.args);
    void start(tool.name, parsed.args, false);
  }

  function confirm() {
    const args = confirming ?? toArgs(fields, values).args;
    setConfirming(null);
    void start(tool.name, args, true);
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      submit();
    }
  };

  return (
    <div className="flex flex-col gap-3 text-sm">
      {tool.description ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{tool.description}</p> : null}
      {destructive ? (
        <p className="flex items-center gap-1.5 text-xs font-medium text-red-700 dark:text-red-400">
          <TriangleAlert aria-hidden className="h-3.5 w-3.5" /> {serverName} marks this tool destructive: it asks before it runs.
        </p>
      ) : null}
      <form
        aria-label={`Arguments of ${tool.name}`}
        onKeyDown={onKeyDown}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        className="flex flex-col gap-3"
      >
        {fields.length > 0 ? (
          <SchemaFields idPrefix={`try-${tool.name}`} fields={fields} values={values} errors={errors} onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))} />
        ) : (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">This tool takes no arguments.</p>
        )}
        {confirming || asksConfirmation ? (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
            <p>
              Run <span className="font-mono font-medium">{tool.name}</span> on {serverName}? Its server marks it destructive: what it deletes or
              overwrites there, the studio cannot bring back.
            </p>
            <div className="mt-2 flex justify-end gap-2">
              <Button
                type="button"
                size="sm"
                variant="ghost"
                onClick={() => {
                  setConfirming(null);
                  if (asksConfirmation) clear();
                }}
              >
                Cancel
              </Button>
              <Button type="button" size="sm" variant="danger" onClick={confirm}>
                Run {tool.name}
              </Button>
            </div>
          </div>
        ) : null}
        <div className="flex items-center gap-2">
          <Button type="submit" variant="primary" size="sm" disabled={run?.running || confirming !== null}>
            <Play aria-hidden className="h-3.5 w-3.5" /> {run?.running ? "Running…" : "Run"}
          </Button>
          {run?.running ? (
            <Button type="button" size="sm" onClick={stop}>
              <Square aria-hidden className="h-3 w-3" /> Stop
            </Button>
          ) : null}
          <span className="text-xs text-zinc-500 dark:text-zinc-400">Ctrl+Enter</span>
          <Button type="button" size="sm" variant="ghost" className="ml-auto" onClick={onClose}>
            Close
          </Button>
        </div>
      </form>
      {run && !(asksConfirmation && !run.running) ? <TryResult run={run} tool={tool.name} /> : null}
    </div>
  );
}
