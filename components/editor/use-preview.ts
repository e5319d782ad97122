"use client";
// The live preview: a moment after typing stops, the unsaved buffer goes to the tool host; answers may come back out
// of order, and only the newest request's is shown.
import { useCallback, useEffect, useRef, useState, type Dispatch } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { isProjectFile } from "@/server/tree/project-names";
import type { BufferAction } from "./buffers";
import { LatestOnly } from "./latest-only";

/** The preview must follow the last keystroke within 150 ms; this wait plus the host's answer stays under it. */
export const PREVIEW_DEBOUNCE_MS = 120;

export function usePreview(path: string, source: string | undefined, dispatch: Dispatch<BufferAction>) {
  const client = useTRPCClient();
  const requests = useRef(new Map<string, LatestOnly>());
  const [pending, setPending] = useState(false);

  useEffect(() => {
    // A project file (requirements.txt, the hook) offers no tools: nothing to preview.
    if (source === undefined || isProjectFile(path)) return;
    const timer = setTimeout(() => {
      let latest = requests.current.get(path);
      if (!latest) requests.current.set(path, (latest = new LatestOnly()));
      const seq = latest.next();
      setPending(true);
      client.tools.preview.mutate({ path, source }).then(
        (entry) => {
          if (latest.accept(seq)) dispatch({ type: "previewed", path, entry });
          setPending(latest.pending);
        },
        () => setPending(latest.pending),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [path, source, client, dispatch]);

  /** A renamed or deleted file's requests are no one's any more. */
  const forget = useCallback((gone: string) => void requests.current.delete(gone), []);

  return { pending, forget };
}
