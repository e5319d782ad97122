"use client";
// One conversation of the playground: the run's cards in the centre with the message box under them, its plan and
// facts on the right. The first message starts a run; later ones continue it once it has answered or was stopped.
// Stop (or Escape, outside a dialog) stops a run that is working or waiting.
import { useMutation, useQuery } from "@tanstack/react-query";
import { MessagesSquare } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { EmptyState } from "@/components/ui/empty-state";
import { Conversation } from "./conversation";
import { MessageBox } from "./message-box";
import { RunFacts } from "./run-facts";
import { TodoList } from "./todo-list";
import { useRunTrace } from "./use-run-trace";

type Props = { agentId: string; agentName: string; runId: string | null; onStarted: (runId: string) => void };

export function RunPane({ agentId, agentName, runId, onStarted }: Props) {
  const trpc = useTRPC();
  const { trace, connection } = useRunTrace(runId);
  // The price is fixed when the run is made (R-cost-fixed), so it is read once; the cost follows the trace's tokens.
  const price = useQuery({ ...trpc.runs.get.queryOptions({ runId: runId ?? "" }), enabled: runId !== null, staleTime: Infinity, select: (data) => data.run.price });
  const start = useMutation(trpc.runs.start.mutationOptions());
  const send = useMutation(trpc.runs.send.mutationOptions());
  const cancel = useMutation(trpc.runs.cancel.mutationOptions());
  const [error, setError] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  // Follow the conversation as it grows, unless the person scrolled up to read.
  const last = trace.items.at(-1);
  const growth = `${trace.items.length}:${last?.kind === "assistant" ? last.text.length : ""}:${trace.lastEventId}`;
  useEffect(() => {
    const el = scroller.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 160) el.scrollTop = el.scrollHeight;
  }, [growth]);

  async function onSend(message: string): Promise<boolean> {
    setError(null);
    cancel.reset();
    try {
      if (runId) await send.mutateAsync({ runId, message });
      else onStarted((await start.mutateAsync({ agentId, message })).runId);
      return true;
    } catch (err) {
      setError(errorSentence(err as Error));
      return false;
    }
  }

  const busy = trace.status === "running" || trace.status === "waiting";
  // Pressed, until the run says it has stopped.
  const stopping = cancel.isPending || (cancel.isSuccess && busy);
  const hint = !runId
    ? `Message ${agentName} (Enter sends, Shift+Enter for a new line)`
    : stopping
      ? "Stopping the run…"
      : trace.status === "waiting"
        ? "Answer the card above first, or press Esc to stop the run; the agent is waiting for you."
        : busy
          ? "The agent is working; you can write again when it answers, or press Esc to stop it."
          : "Reply (Enter sends, Shift+Enter for a new line)";

  const { mutate: stopRun } = cancel;
  useEffect(() => {
    if (!runId || !busy || stopping) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || event.isComposing) return;
      // Inside a dialog, Escape closes the dialog.
      if (document.activeElement?.closest('[role="dialog"], [role="alertdialog"]')) return;
      event.preventDefault();
      stopRun({ runId });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [runId, busy, stopping, stopRun]);
  const shownError = error ?? errorSentence(cancel.error);

  return (
    <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)_18rem]">
      <div className="flex min-h-0 flex-col">
        <div ref={scroller} className="min-h-0 flex-1 overflow-auto px-8 py-6">
          <div className="mx-auto max-w-3xl">
            {!runId ? (
              <EmptyState icon={MessagesSquare} title={`Send a message to start a run of ${agentName}`} className="mt-10">
                Its tool calls appear here as cards as they happen; an operation set to ask you first waits for your approval.
              </EmptyState>
            ) : (
              <Conversation trace={trace} runId={runId} />
            )}
          </div>
        </div>
        <div className="border-t border-zinc-200 px-8 py-3 dark:border-zinc-800">
          <div className="mx-auto max-w-3xl">
            {shownError ? (
              <p role="alert" className="mb-2 text-sm text-red-600">
                {shownError}
              </p>
            ) : null}
            {connection === "reconnecting" ? (
              <p role="status" className="mb-2 text-xs text-amber-700 dark:text-amber-400">
                Connection lost; reconnecting and catching up from the last step shown.
              </p>
            ) : null}
            <MessageBox
              onSend={onSend}
              disabled={busy || start.isPending || send.isPending}
              hint={hint}
              stop={runId && busy ? { onStop: () => stopRun({ runId }), pending: stopping } : null}
            />
          </div>
        </div>
      </div>
      <aside aria-label="Run details" className="flex min-h-0 flex-col gap-6 overflow-auto border-l border-zinc-200 px-5 py-6 dark:border-zinc-800">
        <RunFacts trace={trace} price={runId === null ? undefined : price.data} />
        <TodoList todos={trace.todos} />
      </aside>
    </div>
  );
}
