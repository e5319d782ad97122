"use client";
// Follows one run (key the component by run id: a different run starts from nothing): folds its events into a Trace as they stream, resuming after the last event id it saw when the
// stream drops (the link retries by itself; a subscription that errors out is started again from that id).
import { useEffect, useRef, useState } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { fold, foldAll, type Trace, type TraceEvent } from "./trace";

export function useRunTrace(runId: string | null, initial: TraceEvent[] = []) {
  const client = useTRPCClient();
  const [trace, setTrace] = useState<Trace>(() => foldAll(initial));
  const [connection, setConnection] = useState<"idle" | "live" | "reconnecting">("idle");
  // The subscription restarts from here; state, so a restart reads the id the page last showed.
  const lastEventId = useRef<string | null>(trace.lastEventId);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    lastEventId.current = trace.lastEventId;
  }, [trace.lastEventId]);

  useEffect(() => {
    if (!runId) return;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const subscription = client.runs.events.subscribe(
      { runId, lastEventId: lastEventId.current },
      {
        onStarted: () => setConnection("live"),
        onData: ({ data }) => setTrace((prev) => fold(prev, data as TraceEvent)),
        onConnectionStateChange: (state) => setConnection(state.state === "connecting" ? "reconnecting" : state.state === "pending" ? "live" : "idle"),
        onError: () => {
          setConnection("reconnecting");
          retry = setTimeout(() => setAttempt((n) => n + 1), 1_500);
        },
      },
    );
    return () => {
      clearTimeout(retry);
      subscription.unsubscribe();
    };
  }, [client, runId, attempt]);

  return { trace, connection };
}
