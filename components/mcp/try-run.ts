"use client";
// One call by hand of an MCP server's tool: a POST whose answer streams its progress lines, then the result
// (R-req-acting-post). A new call, Stop, or closing the form aborts the one under way, which cancels it on the server.
import { useEffect, useRef, useState } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import type { CallResult } from "@/server/host/protocol";

export type TryRun = {
  progress: string[];
  result: CallResult | null;
  durationMs: number | null;
  /** The studio's refusal or a lost connection, as thrown; read with errorSentence and refusalOf. */
  error: unknown;
  running: boolean;
  /** The person stopped it before it answered. */
  stopped: boolean;
};

export function useTryRun(serverId: string) {
  const client = useTRPCClient();
  const [run, setRun] = useState<TryRun | null>(null);
  const current = useRef<AbortController | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  async function start(tool: string, args: Record<string, unknown>, confirmed: boolean) {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setRun({ progress: [], result: null, durationMs: null, error: null, running: true, stopped: false });
    try {
      const events = await client.mcpServers.try.mutate({ id: serverId, tool, args, confirmed }, { signal: controller.signal });
      for await (const event of events) {
        if (controller.signal.aborted) return;
        setRun((prev) =>
          !prev
            ? prev
            : event.type === "progress"
              ? { ...prev, progress: [...prev.progress, event.message] }
              : { ...prev, result: event.result, durationMs: event.durationMs, running: false },
        );
      }
      if (!controller.signal.aborted) setRun((prev) => prev && { ...prev, running: false });
    } catch (err) {
      if (!controller.signal.aborted) setRun((prev) => prev && { ...prev, error: err, running: false });
    }
  }

  function stop() {
    current.current?.abort();
    current.current = null;
    setRun((prev) => prev && { ...prev, running: false, stopped: true });
  }

  function clear() {
    setRun(null);
  }

  return { run, start, stop, clear };
}
