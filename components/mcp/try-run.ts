"use client";
// One call by hand of an MCP server's tool, followed as every streamed Try is (components/trpc/streamed-try.ts).
import { useStreamedTry } from "@/components/trpc/streamed-try";
import { useTRPCClient } from "@/components/trpc/provider";

export type { TryRun } from "@/components/trpc/streamed-try";

export function useTryRun(serverId: string) {
  const client = useTRPCClient();
  const streamed = useStreamedTry();
  const start = (tool: string, args: Record<string, unknown>, confirmed: boolean) =>
    streamed.start((signal) => client.mcpServers.try.mutate({ id: serverId, tool, args, confirmed }, { signal }));
  return { ...streamed, start };
}
