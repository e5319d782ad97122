"use client";
// Keeps each open file's unsaved edits on the server a moment after typing stops, so a reload or a
// server restart loses nothing; says whether the newest edits are kept yet.
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPCClient } from "@/components/trpc/provider";

const DRAFT_DELAY_MS = 400;

export function useDrafts() {
  const client = useTRPCClient();
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const [unkept, setUnkept] = useState<Set<string>>(new Set());

  const mark = (path: string, pending: boolean) =>
    setUnkept((prev) => {
      if (prev.has(path) === pending) return prev;
      const next = new Set(prev);
      if (pending) next.add(path);
      else next.delete(path);
      return next;
    });

  /** Schedules keeping `source` (or dropping the draft, when it equals the saved version). */
  const keep = useCallback(
    (path: string, source: string, base: { source: string; hash: string }) => {
      clearTimeout(timers.current.get(path));
      mark(path, true);
      timers.current.set(
        path,
        setTimeout(() => {
          timers.current.delete(path);
          const done = source === base.source
            ? client.tools.file.dropDraft.mutate({ path })
            : client.tools.file.putDraft.mutate({ path, source, baseHash: base.hash });
          done.then(
            () => mark(path, timers.current.has(path)),
            () => undefined,
          );
        }, DRAFT_DELAY_MS),
      );
    },
    [client],
  );

  /** A save or a delete makes a scheduled draft moot. */
  const cancel = useCallback((path: string) => {
    clearTimeout(timers.current.get(path));
    timers.current.delete(path);
    mark(path, false);
  }, []);

  // Leaving with edits not yet kept: ask the browser to warn.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (timers.current.size > 0) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, []);

  return { keep, cancel, unkept };
}
