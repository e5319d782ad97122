"use client";
// /runs/<id>: a run read back, with the playground's cards but no message box and no buttons; a run still going
// keeps streaming in.
import type { RunPrice } from "@/server/runtime/store";
import { Conversation } from "./conversation";
import { RunFacts } from "./run-facts";
import { TodoList } from "./todo-list";
import type { TraceEvent } from "./trace";
import { useRunTrace } from "./use-run-trace";

type Props = { runId: string; events: TraceEvent[]; startedBy: string; price: RunPrice | null };

export function RunTrace({ runId, events, startedBy, price }: Props) {
  const { trace } = useRunTrace(runId, events);
  return (
    <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-h-0 overflow-auto px-8 py-6">
        <div className="mx-auto max-w-3xl">
          {trace.items.length === 0 ? <p className="text-sm text-zinc-500 dark:text-zinc-400">This run has no steps yet.</p> : <Conversation trace={trace} runId={null} />}
        </div>
      </div>
      <aside aria-label="Run details" className="flex min-h-0 flex-col gap-6 overflow-auto border-l border-zinc-200 px-5 py-6 dark:border-zinc-800">
        <RunFacts trace={trace} price={price} extra={[{ label: "Started by", value: startedBy }]} />
        <TodoList todos={trace.todos} />
      </aside>
    </div>
  );
}
