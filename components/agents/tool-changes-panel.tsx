"use client";
// On an MCP source's card: the server's tools that changed since the agent was saved (R-mcp-pin-withheld), each
// with the description and input schema the builder accepted beside what the server says now, and Accept change.
// Until it is accepted a run does not offer that tool to the model; accepting saves a new version of the agent.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, TriangleAlert } from "lucide-react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import type { inferRouterOutputs } from "@trpc/server";
import type { Source } from "@/server/catalog/sources";
import type { AppRouter } from "@/server/trpc/router";
import { changesAnchor } from "./held-back-note";
import { stableText } from "./line-diff";
import { SideBySide } from "./side-by-side";

/** The agent as saved by an acceptance, as the API answers it (dates as ISO text). */
export type AcceptedAgent = inferRouterOutputs<AppRouter>["agents"]["acceptToolChange"];

export type Acceptance = {
  agentId: string;
  /** The saved version the page is based on: an acceptance saves the version after it. */
  baseVersion: number;
  /** The draft holds edits not saved yet (they stay on the page). */
  dirty: boolean;
  onAccepted: (saved: AcceptedAgent) => void;
};

const STALE = "Someone saved this agent since you opened it: reload the page to see their version, then accept the change there.";

export function ToolChangesPanel({ entry, source, acceptance }: { entry: number; source: Source | undefined; acceptance: Acceptance }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { id: acceptance.agentId, entry };
  const changes = useQuery(trpc.agents.toolChanges.queryOptions(input));
  const accept = useMutation(trpc.agents.acceptToolChange.mutationOptions());
  const sourceTitle = source?.title ?? "This MCP server";
  const titleOf = (tool: string) => {
    const op = Object.values(source?.mcp?.tools ?? {}).find((t) => t.tool === tool)?.operation;
    return source?.operations.find((o) => o.name === op)?.title ?? tool;
  };

  function acceptOne(tool: string) {
    accept.mutate(
      { id: acceptance.agentId, baseVersion: acceptance.baseVersion, entry, tools: [tool] },
      {
        onSuccess: async (saved) => {
          acceptance.onAccepted(saved);
          await queryClient.invalidateQueries({ queryKey: trpc.agents.toolChanges.queryKey(input) });
        },
      },
    );
  }

  const list = changes.data ?? [];
  return (
    <section
      id={changesAnchor(entry)}
      aria-label={`Changes to accept from ${sourceTitle}`}
      className="mx-4 mt-2 scroll-mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="flex items-center gap-1 font-medium">
        <TriangleAlert aria-hidden className="h-3.5 w-3.5" /> {sourceTitle} changed what it tells the model since this agent was saved
      </p>
      <p className="mt-0.5 text-amber-900 dark:text-amber-200">
        Until you accept a change, runs do not offer that tool to the model. Read what changed, and accept it only if the agent should use the tool as it
        is now.
      </p>
      {changes.isPending ? <p className="mt-2 text-amber-900 dark:text-amber-200">Reading what changed…</p> : null}
      <ErrorText error={changes.error} className="mt-2 text-xs text-red-700 dark:text-red-300" />
      {changes.data && list.length === 0 ? (
        <p className="mt-2">The server says again what you accepted: there is nothing to accept. Reload the page to clear this note.</p>
      ) : null}
      <ul className="mt-2 flex flex-col gap-3">
        {list.map((change) => {
          const accepting = accept.isPending && accept.variables?.tools?.[0] === change.tool;
          const failed = accept.error && accept.variables?.tools?.[0] === change.tool ? accept.error : null;
          return (
            <li key={change.tool} aria-label={`Change to ${change.tool}`} className="rounded-md border border-amber-200 bg-white p-2 text-zinc-900 dark:border-amber-900 dark:bg-zinc-950 dark:text-zinc-100">
              <div className="flex items-start gap-2">
                <div className="min-w-0 flex-1">
                  <h4 className="text-sm font-semibold">
                    {titleOf(change.tool)} <code className="ml-1 font-mono text-[11px] font-normal text-zinc-500 dark:text-zinc-400">{change.tool}</code>
                  </h4>
                  <p className="text-zinc-600 dark:text-zinc-400">
                    {change.before ? "Not offered to the model until you accept this change." : "Not offered to the model until you accept it: the studio kept no earlier text of it, so only what the server says now is shown."}
                  </p>
                </div>
                <Button size="sm" variant="primary" disabled={accept.isPending} aria-label={`Accept the change to ${change.tool}`} onClick={() => acceptOne(change.tool)}>
                  <Check aria-hidden className="h-3.5 w-3.5" /> {accepting ? "Accepting…" : "Accept change"}
                </Button>
              </div>
              <ErrorText error={failed} byCode={{ CONFLICT: STALE }} className="mt-1 text-xs text-red-600" />
              {acceptance.dirty ? <p className="mt-1 text-zinc-500 dark:text-zinc-400">Accepting saves a new version with only this change; your unsaved edits stay on the page.</p> : null}
              <h5 className="mb-1 mt-2 font-medium text-zinc-600 dark:text-zinc-400">Description</h5>
              {change.before ? (
                <SideBySide label={`Description of ${change.tool}, accepted and now`} before={change.before.description} after={change.after.description} />
              ) : (
                <p className="whitespace-pre-wrap rounded bg-zinc-50 px-2 py-1 dark:bg-zinc-900">{change.after.description || "No description."}</p>
              )}
              <h5 className="mb-1 mt-2 font-medium text-zinc-600 dark:text-zinc-400">Input schema, as the server sends it</h5>
              {change.before ? (
                <div className="max-h-80 overflow-auto">
                  <SideBySide label={`Input schema of ${change.tool}, accepted and now`} before={stableText(change.before.inputSchema)} after={stableText(change.after.inputSchema)} />
                </div>
              ) : (
                <pre className="max-h-80 overflow-auto rounded bg-zinc-50 px-2 py-1 font-mono text-[11px] dark:bg-zinc-900">{stableText(change.after.inputSchema)}</pre>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
