// How the API keys page names what a key may do and how far it reaches, in the builder's words.
import type { KeyAgents, KeyScope } from "@/db/schema";

export const SCOPES: ReadonlyArray<{ scope: KeyScope; label: string; hint: string }> = [
  { scope: "run", label: "Run agents", hint: "Start and continue runs, and call an agent as a chat model or an MCP server." },
  { scope: "read", label: "Read runs", hint: "Read runs and follow their steps as they happen." },
  { scope: "decide", label: "Decide approvals", hint: "Approve or deny a call that waits, and answer an agent's question." },
  { scope: "metrics", label: "Read metrics", hint: "Only for a Prometheus scraper: read /api/metrics and nothing else, with no agents." },
];

const SHORT: Record<KeyScope, string> = { run: "run agents", read: "read runs", decide: "decide approvals", metrics: "read metrics" };

/** The scopes after ticking or unticking one: metrics is a key's only scope or none of them (R-metrics-key). */
export function toggledScopes(scopes: readonly KeyScope[], scope: KeyScope, on: boolean): KeyScope[] {
  if (!on) return scopes.filter((s) => s !== scope);
  if (scope === "metrics") return ["metrics"];
  return [...scopes.filter((s) => s !== "metrics" && s !== scope), scope];
}

/** "run agents, read runs": what a key may do, in the order SCOPES lists them. */
export function scopeWords(scopes: readonly KeyScope[]): string {
  return SCOPES.filter((s) => scopes.includes(s.scope))
    .map((s) => SHORT[s.scope])
    .join(", ");
}

/** "All agents", or the names of the agents still there ("2 agents since deleted" for the rest). */
export function agentWords(agents: KeyAgents, names: readonly string[]): string {
  if (agents === "all") return "All agents";
  const gone = agents.length - names.length;
  const listed = names.length > 0 ? names.join(", ") : "";
  const missing = gone > 0 ? `${gone} agent${gone === 1 ? "" : "s"} since deleted` : "";
  return [listed, missing].filter(Boolean).join("; ") || "No agents";
}
