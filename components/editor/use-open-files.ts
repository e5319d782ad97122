"use client";
// The editor's tabs: a buffer per open file (buffers.ts) and the file shown. The address follows the shown file
// without a page navigation, so the tabs survive; Back and Forward move between files.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { isProjectFile } from "@/server/tree/project-names";
import { buffersReducer, drawsChange, noBuffers, type BufferAction, type Buffers } from "./buffers";
import { disposeModel, moveModel } from "./models";
import type { Monaco } from "./monaco-setup";

function urlFor(path: string) {
  return `/tools/${encodeURIComponent(path)}`;
}

export function useOpenFiles(initialPath: string, monaco: Monaco | null) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The buffers now, every action applied as it happens: what a save, a draft and the preview read. `buffers` is what
  // was last drawn, which a key that only moves the text leaves behind (R-editor-key-quiet).
  const latest = useRef<Buffers>(noBuffers);
  const [buffers, setDrawn] = useState<Buffers>(noBuffers);
  const dispatch = useCallback((action: BufferAction) => {
    const before = latest.current;
    const after = (latest.current = buffersReducer(before, action));
    if (drawsChange(before, after, action)) setDrawn(after);
  }, []);
  const [active, setActive] = useState(initialPath);
  const [openError, setOpenError] = useState<string | null>(null);

  /** Reads a file into a buffer (with its draft), unless it is open already. */
  const load = useCallback(
    (path: string): Promise<void> => {
      if (latest.current.byPath[path]) return Promise.resolve();
      // A project file beside the tree (R-deps-edit) is read by its own procedure; the names never collide.
      const read = isProjectFile(path)
        ? queryClient.fetchQuery({ ...trpc.tools.project.read.queryOptions({ path }), staleTime: 0 })
        : queryClient.fetchQuery({ ...trpc.tools.read.queryOptions({ path }), staleTime: 0 });
      return read.then(
        ({ file, draft }) =>
          dispatch({ type: "opened", path, file, draft: draft && { ...draft, updatedAt: new Date(draft.updatedAt) } }),
        (err: Error) => setOpenError(errorSentence(err)),
      );
    },
    [queryClient, trpc, dispatch],
  );

  /** Shows a file, opening it as a tab. */
  const open = useCallback(
    (path: string, push = true) => {
      setOpenError(null);
      setActive(path);
      // The file shown next is drawn with the text it has now, not the text of its last drawing (R-editor-key-quiet).
      setDrawn(latest.current);
      if (push && window.location.pathname !== urlFor(path)) window.history.pushState(null, "", urlFor(path));
      return load(path);
    },
    [load],
  );

  useEffect(() => {
    void load(initialPath);
  }, [initialPath, load]);

  useEffect(() => {
    const onPop = () => {
      const path = decodeURIComponent(window.location.pathname.replace(/^\/tools\//, ""));
      if (path) void open(path, false);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [open]);

  /** Closes a tab and its model; closing the shown file shows the last tab left. Says whether any is left. */
  const close = (path: string): boolean => {
    const remaining = buffers.order.filter((p) => p !== path);
    disposeModel(monaco, path);
    dispatch({ type: "closed", path });
    if (path === active && remaining.length > 0) void open(remaining[remaining.length - 1]!);
    return remaining.length > 0;
  };

  /** The open file was renamed on the server: its tab, model and address follow. */
  const renamed = (from: string, to: string) => {
    moveModel(monaco, from, to);
    dispatch({ type: "renamed", from, to });
    setActive(to);
    window.history.replaceState(null, "", urlFor(to));
  };

  return { buffers, latest, dispatch, active, openError, open, close, renamed };
}

export type OpenFiles = ReturnType<typeof useOpenFiles>;
