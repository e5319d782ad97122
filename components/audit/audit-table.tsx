"use client";
// Settings → Audit: the log, newest first, filtered by who, what and which target.
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { useTRPC } from "@/components/trpc/provider";

const timeFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "medium" });

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
      {rows.error ? <p role="alert" className="text-sm text-red-600">{rows.error.message}</p> : null}
      {rows.data && rows.data.length === 0 ? <p className="text-sm text-zinc-500">Nothing matches these filters.</p> : null}
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500 dark:border-zinc-800">
          <tr>
            <th scope="col" className="py-2 font-medium">When</th>
            <th scope="col" className="py-2 font-medium">Who</th>
            <th scope="col" className="py-2 font-medium">What</th>
            <th scope="col" className="py-2 font-medium">Target</th>
            <th scope="col" className="py-2 font-medium">Detail</th>
          </tr>
        </thead>
        <tbody>
          {(rows.data ?? []).map((row) => (
            <tr key={row.id} className="border-b border-zinc-100 align-top dark:border-zinc-900">
              <td className="py-1.5 pr-4 whitespace-nowrap text-zinc-600 dark:text-zinc-400">{timeFormat.format(new Date(row.at))}</td>
              <td className="py-1.5 pr-4 text-xs" title={row.actor}>{row.actorEmail ?? row.actor}</td>
              <td className="py-1.5 pr-4 font-mono text-xs">{row.action}</td>
              <td className="py-1.5 pr-4 font-mono text-xs">{row.target ?? ""}</td>
              <td className="py-1.5 font-mono text-xs text-zinc-500">{Object.keys(row.detail).length ? JSON.stringify(row.detail) : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
