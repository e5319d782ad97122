"use client";
// The live preview: on each pause in typing the unsaved buffer goes to the tool host, and the request before it is
// cancelled; answers that still come back out of order are dropped, so only the newest request's is shown
// (R-preview-pause, R-preview-latest; the rules live in preview-requests.ts, apart from React).
import { useCallback, useEffect, useState, type Dispatch, type RefObject } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { isProjectFile } from "@/server/tree/project-names";
import type { CatalogFile } from "@/server/host/protocol";
import type { BufferAction, Buffers } from "./buffers";
import { busyFlag } from "./busy-flag";
import { PreviewRequests } from "./preview-requests";

/**
 * `drawn` is the shown file's text as last drawn, which a key that only moves the text leaves behind; `now` holds the
 * buffers as they are, so a drawing never tells the preview a text the editor has moved past (R-editor-key-quiet).
 */
export function usePreview(path: string, drawn: string | undefined, now: RefObject<Buffers>, dispatch: Dispatch<BufferAction>) {
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
  // and telling the same text again keeps that pause running (R-preview-from-key). The text told is the buffer's now:
  // one drawn a key ago would restart the pause for a text already gone (R-editor-key-quiet).
  useEffect(() => {
    const source = now.current.byPath[path]?.source;
    if (drawn !== undefined && source !== undefined) changed(path, source);
  }, [path, drawn, now, changed]);
  useEffect(() => () => requests.stop(), [requests]);

  const forget = useCallback((gone: string) => requests.forget(gone), [requests]);

  return { busy, typed: changed, forget };
}
