"use client";
// The live preview: on each pause in typing the unsaved buffer goes to the tool host, and the request before it is
// cancelled; answers that still come back out of order are dropped, so only the newest request's is shown
// (R-preview-pause, R-preview-latest; the rules live in preview-requests.ts, apart from React).
import { useCallback, useEffect, useState, type Dispatch } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { isProjectFile } from "@/server/tree/project-names";
import type { CatalogFile } from "@/server/host/protocol";
import type { BufferAction } from "./buffers";
import { busyFlag } from "./busy-flag";
import { PreviewRequests } from "./preview-requests";

export function usePreview(path: string, source: string | undefined, dispatch: Dispatch<BufferAction>) {
  const client = useTRPCClient();
  const [busy] = useState(busyFlag);
  const [requests] = useState(
    () =>
      new PreviewRequests<CatalogFile>(
        (file, text, signal) => client.tools.preview.mutate({ path: file, source: text }, { signal }),
        (file, entry) => dispatch({ type: "previewed", path: file, entry }),
        busy.set,
      ),
  );

  // A project file (requirements.txt, the hook) offers no tools: nothing to preview.
  const changed = useCallback(
    (file: string, text: string) => {
      if (!isProjectFile(file)) requests.changed(file, text);
    },
    [requests],
  );

  // Opening a file or showing another tab derives it; a key has started its pause already, from its change event,
  // and telling the same text again keeps that pause running (R-preview-from-key).
  useEffect(() => {
    if (source !== undefined) changed(path, source);
  }, [path, source, changed]);
  useEffect(() => () => requests.stop(), [requests]);

  const forget = useCallback((gone: string) => requests.forget(gone), [requests]);

  return { busy, typed: changed, forget };
}
