"use client";
// One call by hand whose answer streams (R-req-acting-post): its progress lines as they come, then its result. Try it
// in the editor and Try on an MCP server's row both follow a call this way; a new call, Stop, or leaving the page
// aborts the one under way, which cancels it on the server.
import { useEffect, useRef, useState } from "react";
import type { TryEvent } from "@/server/calls/try-it";
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

/** `open(signal)` sends the call and resolves to its stream of events. */
export type OpenTry = (signal: AbortSignal) => Promise<AsyncIterable<TryEvent>>;

export function useStreamedTry() {
  const [run, setRun] = useState<TryRun | null>(null);
  const current = useRef<AbortController | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  async function start(open: OpenTry) {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setRun({ progress: [], result: null, durationMs: null, error: null, running: true, stopped: false });
    try {
      for await (const event of await open(controller.signal)) {
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
