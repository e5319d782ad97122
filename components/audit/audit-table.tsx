"use client";
// Settings → Audit: the log, newest first, filtered by who, what and which target.
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Table, TableBody, TableCell, TableEmpty, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";

export function AuditTable() {
  const trpc = useTRPC();
  const [filter, setFilter] = useState({ actor: "", action: "", target: "" });
  const deferred = useDeferredValue(filter);
  const rows = useQuery(
    trpc.audit.list.queryOptions({
      actor: deferred.actor || undefined,
      action: deferred.action || undefined,
      target: deferred.target || undefined,
      limit: 200,
    }),
  );
  const input = (key: keyof typeof filter, label: string, placeholder: string) => (
    <label className="flex flex-col gap-1 text-xs">
      <span className="font-medium">{label}</span>
      <input
        value={filter[key]}
        onChange={(e) => setFilter({ ...filter, [key]: e.target.value })}
        placeholder={placeholder}
        className="w-48 rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700"
      />
    </label>
  );
  return (
    <section className="px-8 py-6" aria-label="Audit log">
      <div className="mb-4 flex flex-wrap gap-4">
        {input("action", "What", "secret., user.signed_in")}
        {input("actor", "Who", "an email or a user id")}
        {input("target", "Target", "a name, a tool, a run")}
      </div>
      <ErrorText error={rows.error} />
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>When</TableHead>
            <TableHead>Who</TableHead>
            <TableHead>What</TableHead>
            <TableHead>Target</TableHead>
            <TableHead>Detail</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {(rows.data ?? []).map((row) => (
            <TableRow key={row.id} className="align-top">
              <TableCell className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                <Time at={row.at} format="seconds" />
              </TableCell>
              <TableCell className="text-xs" title={row.actor}>{row.actorEmail ?? row.actor}</TableCell>
              <TableCell className="font-mono text-xs">{row.action}</TableCell>
              <TableCell className="font-mono text-xs">{row.target ?? ""}</TableCell>
              <TableCell className="font-mono text-xs break-all text-zinc-500 dark:text-zinc-400">{Object.keys(row.detail).length ? JSON.stringify(row.detail) : ""}</TableCell>
            </TableRow>
          ))}
          {rows.data && rows.data.length === 0 ? <TableEmpty colSpan={5}>Nothing matches these filters.</TableEmpty> : null}
        </TableBody>
      </Table>
    </section>
  );
}
