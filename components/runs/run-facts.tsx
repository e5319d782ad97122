"use client";
// The run's facts beside the conversation: status (what it waits on; who stopped it), model, tokens and what they
// cost at the run's own price (R-cost-run-page), how long it has taken (ticking while it runs).
import { useEffect, useState } from "react";
import { costOf, costWords, decimalOf } from "@/server/models/price-words";
import type { RunPrice } from "@/server/runtime/store";
import { formatDuration } from "./format";
import { StatusBadge } from "./status-badge";
import { waitingFor, type Trace } from "./trace";

function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/**
 * The run's cost from the tokens seen so far, counted as the database counts it, so it moves while the run does;
 * "no price set" when the run has none (never 0), and nothing while its price is still being read.
 */
function Cost({ trace, price }: { trace: Trace; price: RunPrice | null | undefined }) {
  if (price === undefined) return <span className="text-zinc-500 dark:text-zinc-400">—</span>;
  if (price === null) return <span className="text-zinc-500 dark:text-zinc-400">no price set</span>;
  return (
    <>
      <span className="tabular-nums">{costWords(costOf(trace.tokens, price), price.currency)}</span>
      <span className="block text-xs text-zinc-500 dark:text-zinc-400">
        at {decimalOf(price.input)} in · {decimalOf(price.output)} out per million tokens
      </span>
    </>
  );
}

export function RunFacts({ trace, extra, price }: { trace: Trace; extra?: { label: string; value: string }[]; price?: RunPrice | null }) {
  const now = useNow(trace.status === "running" || trace.status === "waiting");
  const started = trace.startedAt ? Date.parse(trace.startedAt) : null;
  const ended = trace.endedAt ? Date.parse(trace.endedAt) : null;
  const duration = started === null ? null : Math.max(0, (ended ?? now) - started);
  const rows = [
    ...(extra ?? []),
    ...(trace.stoppedBy ? [{ label: "Stopped by", value: trace.stoppedBy.name ?? "someone" }] : []),
    { label: "Model", value: trace.model ? `${trace.model.model} (${trace.model.provider})` : "—" },
    { label: "Tokens", value: `${trace.tokens.input.toLocaleString("en")} in · ${trace.tokens.output.toLocaleString("en")} out` },
    { label: "Duration", value: duration === null ? "—" : formatDuration(duration) },
  ];
  return (
    <section aria-labelledby="facts-heading">
      <h2 id="facts-heading" className="mb-2 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        This run
      </h2>
      <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-2 gap-y-1.5 text-sm">
        <dt className="text-zinc-500 dark:text-zinc-400">Status</dt>
        <dd>{trace.status ? <StatusBadge status={trace.status} waitingFor={waitingFor(trace)} /> : <span className="text-zinc-500 dark:text-zinc-400">Not started</span>}</dd>
        {rows.map((row) => (
          <div key={row.label} className="contents">
            <dt className="text-zinc-500 dark:text-zinc-400">{row.label}</dt>
            <dd className="break-words">{row.value}</dd>
          </div>
        ))}
        <dt className="text-zinc-500 dark:text-zinc-400">Cost</dt>
        <dd className="break-words">
          <Cost trace={trace} price={price} />
        </dd>
      </dl>
    </section>
  );
}
