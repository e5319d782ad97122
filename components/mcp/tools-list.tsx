"use client";
// A server's tools as its row unfolds them: title, name, description and input schema, read from the server
// (which starts it when it is not running) once per unfolding, and again on Read again; each one's Try calls it.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FlaskConical, RefreshCw } from "lucide-react";
import { useState } from "react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import { isDestructive, TryDialog } from "./try-dialog";
import type { ServerTool } from "./types";

/** What a builder reads for a tool: its annotated title, its title, or its name in words. */
export function toolTitle(tool: Pick<ServerTool, "name" | "title" | "annotations">): string {
  const title = tool.annotations?.title ?? tool.title;
  if (title) return title;
  const words = tool.name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_\-.]+/g, " ").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function ToolsList({ serverId, serverName }: { serverId: string; serverName: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [trying, setTrying] = useState<ServerTool | null>(null);
  // A mutation on the server (it may start the server's program), read here like a query: once per unfolding.
  const tools = useQuery({
    queryKey: ["mcpServers.tools", serverId],
    queryFn: async () => {
      const refresh = queryClient.getQueryData(["mcpServers.tools", serverId]) !== undefined;
      const answer = await client.mcpServers.tools.mutate({ id: serverId, refresh });
      await queryClient.invalidateQueries({ queryKey: trpc.mcpServers.list.queryKey() });
      return answer;
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

  if (tools.isPending) return <p className="text-xs text-zinc-500 dark:text-zinc-400">Reading the tools of {serverName}…</p>;
  if (tools.error) {
    return (
      <p role="alert" className="text-xs text-red-600">
        {errorSentence(tools.error)}
      </p>
    );
  }
  const list = tools.data.tools;
  return (
    <section aria-label={`Tools of ${serverName}`} className="flex flex-col gap-2">
      <div className="flex items-center gap-3 text-xs text-zinc-500 dark:text-zinc-400">
        <span>
          {list.length} tool{list.length === 1 ? "" : "s"}, read <Time at={tools.data.readAt} />
        </span>
        <Button size="sm" variant="ghost" disabled={tools.isFetching} onClick={() => void tools.refetch()} aria-label={`Read the tools of ${serverName} again`}>
          <RefreshCw aria-hidden className="h-3.5 w-3.5" /> {tools.isFetching ? "Reading…" : "Read again"}
        </Button>
      </div>
      {list.length === 0 ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">The server offers no tools.</p>
      ) : (
      <ul className="flex flex-col divide-y divide-zinc-100 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {list.map((tool) => (
          <li key={tool.name} className="flex items-start gap-2 px-3 py-2">
            <details className="min-w-0 flex-1">
              <summary className="cursor-pointer text-sm">
                <span className="font-medium">{toolTitle(tool)}</span> <code className="ml-1 font-mono text-xs text-zinc-500 dark:text-zinc-400">{tool.name}</code>
                {tool.description ? <span className="mt-0.5 block pl-4 text-xs text-zinc-600 dark:text-zinc-400">{tool.description}</span> : null}
              </summary>
              <pre aria-label={`Input schema of ${tool.name}`} className="mt-2 max-h-64 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-950">
                {JSON.stringify(tool.inputSchema, null, 2)}
              </pre>
            </details>
            {isDestructive(tool) ? <span className="mt-0.5 shrink-0 rounded border border-red-200 px-1.5 text-[11px] font-medium text-red-700 dark:border-red-900 dark:text-red-400">Destructive</span> : null}
            <Button size="sm" variant="ghost" aria-label={`Try ${tool.name}`} title={`Call ${tool.name} by hand`} onClick={() => setTrying(tool)}>
              <FlaskConical aria-hidden className="h-3.5 w-3.5" /> Try
            </Button>
          </li>
        ))}
      </ul>
      )}
      <TryDialog serverId={serverId} serverName={serverName} tool={trying} title={trying ? toolTitle(trying) : ""} onClose={() => setTrying(null)} />
    </section>
  );
}
