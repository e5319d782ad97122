"use client";
// Which agents a key may use: all of them (those made later too), or the ones ticked here.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import type { KeyAgents } from "@/db/schema";

export function AgentPicker({ value, onChange, error }: { value: KeyAgents; onChange: (next: KeyAgents) => void; error: string | null }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.agents.list.queryOptions());
  const [filter, setFilter] = useState("");
  const chosen = new Set(value === "all" ? [] : value);
  const agents = (list.data ?? []).filter((agent) => agent.name.toLowerCase().includes(filter.trim().toLowerCase()));

  function toggle(id: string, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    onChange([...next]);
  }

  return (
    <fieldset className="flex flex-col gap-1 text-sm" aria-describedby="key-agents-note">
      <legend className="mb-1 font-medium">Agents it may use</legend>
      <label className="flex items-center gap-2">
        <input type="radio" name="key-agents" checked={value === "all"} onChange={() => onChange("all")} />
        All agents, including those made later
      </label>
      <label className="flex items-center gap-2">
        <input type="radio" name="key-agents" checked={value !== "all"} onChange={() => onChange([])} />
        Only the agents I pick
      </label>
      {value !== "all" ? (
        <div className="ml-6 mt-1 flex flex-col gap-1">
          {(list.data?.length ?? 0) > 8 ? (
            <input
              aria-label="Find an agent"
              placeholder="Find an agent"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm outline-none focus:border-accent dark:border-zinc-700"
            />
          ) : null}
          <ErrorText error={list.error} />
          {list.isPending ? <p className="text-zinc-500 dark:text-zinc-400">Reading the agents…</p> : null}
          {list.data?.length === 0 ? <p className="text-zinc-500 dark:text-zinc-400">There are no agents yet; make one in Agents, or let the key use all agents.</p> : null}
          <ul className="max-h-40 overflow-y-auto">
            {agents.map((agent) => (
              <li key={agent.id}>
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={chosen.has(agent.id)} onChange={(event) => toggle(agent.id, event.target.checked)} />
                  {agent.name || "Untitled agent"}
                </label>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <span id="key-agents-note" className={`text-xs ${error ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}`}>
        {error ?? "A program with this key can reach only these agents; any other answers that the key may not use it."}
      </span>
    </fieldset>
  );
}
