"use client";
// Every run, newest first: agent, who started it and how (the playground, a key, MCP, a webhook, a schedule), when,
// status, how long; filtered by status, agent, how it started and when on the server, with each agent's runs, tokens
// and cost under the same filters above it (R-cost-totals). Each row opens the run's read-only trace. The list follows
// the runs live: a subscription says when any run starts or changes status, and the list is read again then (never
// polled).
import { useQuery, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { History } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { selectClass } from "@/components/agents/styles";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableEmpty, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { RunStatus, RunVia } from "@/db/schema";
import type { RunPeriod } from "@/server/runtime/store";
import { AgentTotals } from "./agent-totals";
import { formatDuration, STATUS_LABELS } from "./format";
import { StatusBadge } from "./status-badge";
import { VIA_LABELS, viaWords } from "./via";

const statuses = Object.keys(STATUS_LABELS) as RunStatus[];
const vias = Object.keys(VIA_LABELS) as RunVia[];
const PERIOD_LABELS: Record<RunPeriod, string> = { day: "The last 24 hours", week: "The last 7 days", month: "The last 30 days" };
const periods = Object.keys(PERIOD_LABELS) as RunPeriod[];

/** Re-reads every list of runs when a run starts or changes status; a dropped stream is opened again. */
function useRunsFollow() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let retry: ReturnType<typeof setTimeout> | undefined;
    const subscription = client.runs.changes.subscribe(undefined, {
      // Opened or reopened: whatever changed while no stream was open is read now.
      onStarted: () => void Promise.all([queryClient.invalidateQueries({ queryKey: trpc.runs.list.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.runs.totals.queryKey() })]),
      onData: () => void Promise.all([queryClient.invalidateQueries({ queryKey: trpc.runs.list.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.runs.totals.queryKey() })]),
      onError: () => {
        retry = setTimeout(() => setAttempt((n) => n + 1), 1_500);
      },
    });
    return () => {
      clearTimeout(retry);
      subscription.unsubscribe();
    };
  }, [client, queryClient, trpc, attempt]);
}

export function RunsTable() {
  const trpc = useTRPC();
  const [status, setStatus] = useState<RunStatus | "">("");
  const [agentId, setAgentId] = useState("");
  const [via, setVia] = useState<RunVia | "">("");
  const [period, setPeriod] = useState<RunPeriod | "">("");
  const filter = { status: status || undefined, agentId: agentId || undefined, via: via || undefined, period: period || undefined };
  const filtering = Boolean(status || agentId || via || period);
  useRunsFollow();
  const all = useSuspenseQuery(trpc.runs.list.queryOptions({}));
  const filtered = useQuery({ ...trpc.runs.list.queryOptions(filter), enabled: filtering });
  const runs = filtering ? (filtered.data ?? []) : all.data;
  // The agent filter offers the agents that have runs, by the name of their latest one.
  const agents = useMemo(() => [...new Map(all.data.map((r) => [r.agentId, r.agentName])).entries()], [all.data]);

  if (all.data.length === 0) {
    return (
      <section className="px-8 py-6" aria-label="Runs">
        <EmptyState
          icon={History}
          title="No runs yet — open an agent and press Run"
          actions={
            <Link href="/agents" className="text-sm font-medium text-accent dark:text-indigo-400 hover:underline">
              Go to Agents
            </Link>
          }
        >
          Every conversation with an agent is kept here, step by step.
        </EmptyState>
      </section>
    );
  }

  return (
    <section className="px-8 py-6" aria-label="Runs">
      <div className="mb-4 flex items-center gap-3">
        <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          Status
          <select className={selectClass} value={status} onChange={(event) => setStatus(event.target.value as RunStatus | "")}>
            <option value="">Any</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          Agent
          <select className={selectClass} value={agentId} onChange={(event) => setAgentId(event.target.value)}>
            <option value="">Any</option>
            {agents.map(([id, name]) => (
              <option key={id} value={id}>
                {name || "Untitled agent"}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          Started from
          <select className={selectClass} value={via} onChange={(event) => setVia(event.target.value as RunVia | "")}>
            <option value="">Anywhere</option>
            {vias.map((v) => (
              <option key={v} value={v}>
                {VIA_LABELS[v]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          When
          <select className={selectClass} value={period} onChange={(event) => setPeriod(event.target.value as RunPeriod | "")}>
            <option value="">Any time</option>
            {periods.map((p) => (
              <option key={p} value={p}>
                {PERIOD_LABELS[p]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <AgentTotals filter={filter} />
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Agent</TableHead>
            <TableHead>Who</TableHead>
            <TableHead>How</TableHead>
            <TableHead>Started</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Duration</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {runs.map((run) => (
            <TableRow key={run.id} className="align-top">
              <TableCell>
                <Link href={`/runs/${run.id}`} className="font-medium hover:text-accent hover:underline">
                  {run.agentName || "Untitled agent"}
                </Link>
                <span className="block text-xs text-zinc-500 dark:text-zinc-400">version {run.agentVersion}</span>
              </TableCell>
              <TableCell className="text-zinc-700 dark:text-zinc-300">
                {/* A key is no person: the How column names it. */}
                {run.startedBy.startsWith("key:") ? <span className="text-zinc-500 dark:text-zinc-400">no one, a program</span> : (run.startedByName ?? "someone since removed")}
              </TableCell>
              <TableCell className="text-zinc-600 dark:text-zinc-400">{viaWords(run)}</TableCell>
              <TableCell className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                <Time at={run.startedAt} />
              </TableCell>
              <TableCell>
                <StatusBadge status={run.status} waitingFor={run.waitingFor} />
                {run.error ? <span className="mt-0.5 block max-w-xs truncate text-xs text-red-600" title={run.error}>{run.error}</span> : null}
              </TableCell>
              <TableCell className="whitespace-nowrap text-right tabular-nums text-zinc-600 dark:text-zinc-400">
                {run.endedAt ? formatDuration(new Date(run.endedAt).getTime() - new Date(run.startedAt).getTime()) : "—"}
              </TableCell>
            </TableRow>
          ))}
          {runs.length === 0 && !filtered.isPending ? <TableEmpty colSpan={6}>No run matches these filters.</TableEmpty> : null}
        </TableBody>
      </Table>
    </section>
  );
}
