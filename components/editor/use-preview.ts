"use client";
// The live preview: on each pause in typing the unsaved buffer goes to the tool host, and the request before it is
// cancelled; answers that still come back out of order are dropped, so only the newest request's is shown.
import { useCallback, useEffect, useRef, useState, type Dispatch } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { isProjectFile } from "@/server/tree/project-names";
import type { BufferAction } from "./buffers";
import { LatestOnly } from "./latest-only";

/**
 * The pause that counts as "typing stopped". Derivation takes a few milliseconds, so the wait is what a person feels:
 * it is kept just long enough that a burst of keys sends one request, and the keystroke-to-paint total stays ≤ 80 ms.
 */
export const PREVIEW_DEBOUNCE_MS = 25;

type Requests = { latest: LatestOnly; inFlight?: AbortController };

export function usePreview(path: string, source: string | undefined, dispatch: Dispatch<BufferAction>) {
  const client = useTRPCClient();
  const requests = useRef(new Map<string, Requests>());
  const [pending, setPending] = useState(false);

  useEffect(() => {
    // A project file (requirements.txt, the hook) offers no tools: nothing to preview.
    if (source === undefined || isProjectFile(path)) return;
    const timer = setTimeout(() => {
      let file = requests.current.get(path);
      if (!file) requests.current.set(path, (file = { latest: new LatestOnly() }));
      const { latest } = file;
      // The older request's answer could never be shown: stop waiting for it.
      file.inFlight?.abort();
      const controller = (file.inFlight = new AbortController());
      const seq = latest.next();
      setPending(true);
      client.tools.preview.mutate({ path, source }, { signal: controller.signal }).then(
        (entry) => {
          if (latest.accept(seq)) dispatch({ type: "previewed", path, entry });
          setPending(latest.pending);
        },
        () => {
          // A cancelled request is superseded, not failed: the newer one settles `pending`.
          if (!controller.signal.aborted) setPending(latest.pending);
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [path, source, client, dispatch]);

  /** A renamed or deleted file's requests are no one's any more. */
  const forget = useCallback((gone: string) => {
    requests.current.get(gone)?.inFlight?.abort();
    requests.current.delete(gone);
  }, []);

  return { pending, forget };
}
