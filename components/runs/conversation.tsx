// The run's conversation in order: the person's messages, the assistant's text (streaming in), tool calls as cards,
// and what the run said about itself (a failure, entries that offer nothing).
import { AlertCircle, Info } from "lucide-react";
import { CallCard } from "./call-card";
import type { Trace } from "./trace";

export function Conversation({ trace, runId }: { trace: Trace; runId: string | null }) {
  return (
    <ol aria-label="Conversation" className="flex flex-col gap-3">
      {trace.items.map((item) => {
        switch (item.kind) {
          case "user":
            return (
              <li key={item.key} className="flex justify-end">
                <div aria-label="Your message" className="max-w-[80%] whitespace-pre-wrap rounded-lg bg-indigo-50 px-3 py-2 text-sm text-zinc-900 dark:bg-indigo-950 dark:text-zinc-100">
                  {item.text}
                </div>
              </li>
            );
          case "assistant":
            return (
              <li key={item.key} aria-label="Agent's reply" aria-busy={item.streaming} className="whitespace-pre-wrap text-sm leading-relaxed text-zinc-900 dark:text-zinc-100">
                {item.text}
                {item.streaming ? <span aria-hidden className="ml-0.5 inline-block h-3.5 w-1.5 animate-pulse bg-zinc-400 align-middle" /> : null}
              </li>
            );
          case "call": {
            const call = trace.calls[item.callId];
            return call ? (
              <li key={item.key}>
                <CallCard call={call} runId={runId} calls={trace.calls} />
              </li>
            ) : null;
          }
          case "notice":
            return (
              <li
                key={item.key}
                role={item.tone === "error" ? "alert" : undefined}
                className={`flex items-start gap-2 rounded-md px-3 py-2 text-sm ${
                  item.tone === "error"
                    ? "border border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
                    : "bg-zinc-50 text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300"
                }`}
              >
                {item.tone === "error" ? <AlertCircle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" /> : <Info aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />}
                {item.text}
              </li>
            );
        }
      })}
    </ol>
  );
}
