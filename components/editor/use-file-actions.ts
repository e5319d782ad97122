"use client";
// What the editor asks of the server for a file: save (a save that meets a newer version on disk becomes a conflict
// to merge, nothing lost), rename and delete. A refusal stays where it happened: the save's under the toolbar, a
// rename's or a deletion's in its dialog.
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { errorSentence, refusalOf } from "@/components/trpc/errors";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { isProjectFile } from "@/server/tree/project-names";
import type { Version } from "./buffers";
import { replaceText } from "./models";
import type { Monaco } from "./monaco-setup";
import type { useDrafts } from "./use-drafts";
import type { OpenFiles } from "./use-open-files";

/** The version on disk a save collided with, when the save was refused for that. */
function conflictOf(err: unknown): Version | null {
  const { reason, details } = refusalOf(err);
  if (reason !== "CONFLICT") return null;
  return (details as { current?: Version } | null)?.current ?? null;
}

export function useFileActions({
  files,
  monaco,
  drafts,
  forgetPreview,
  onDone,
}: {
  files: OpenFiles;
  monaco: Monaco | null;
  drafts: ReturnType<typeof useDrafts>;
  forgetPreview: (path: string) => void;
  /** A rename or deletion went through (its dialog closes). */
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { latest, dispatch, active } = files;

  /** Saves a buffer, or with `text` and `baseHash` a merge on top of the version on disk. */
  const save = useCallback(
    async (path: string, text?: string, baseHash?: string) => {
      const current = latest.current.byPath[path];
      if (!current || current.saving) return;
      const body = text ?? current.source;
      dispatch({ type: "saving", path });
      drafts.cancel(path);
      try {
        const input = { source: body, baseHash: baseHash ?? current.base.hash };
        const saved = isProjectFile(path)
          ? await client.tools.project.save.mutate({ path, ...input })
          : await client.tools.file.save.mutate({ path, ...input });
        if (text !== undefined) {
          replaceText(monaco, path, text);
          dispatch({ type: "edited", path, source: text });
        }
        dispatch({ type: "saved", path, version: { source: saved.source, hash: saved.hash } });
        await queryClient.invalidateQueries({ queryKey: trpc.tools.files.queryKey() });
        // A saved dependency file starts an install: the status and the log follow it.
        if (isProjectFile(path)) await queryClient.invalidateQueries({ queryKey: trpc.tools.project.pathKey() });
      } catch (err) {
        const theirs = conflictOf(err);
        if (theirs) dispatch({ type: "conflict", path, current: theirs });
        else dispatch({ type: "saveFailed", path, message: errorSentence(err as Error) });
      }
    },
    [client, drafts, queryClient, monaco, trpc, latest, dispatch],
  );

  /** Ends a conflict by dropping the unsaved edits for the version on disk. */
  const takeTheirs = (path: string) => {
    const theirs = latest.current.byPath[path]?.conflict;
    if (!theirs) return;
    replaceText(monaco, path, theirs.source);
    dispatch({ type: "edited", path, source: theirs.source });
    dispatch({ type: "resolved", path, base: theirs });
    drafts.keep(path, theirs.source, theirs);
  };

  const settle = async (action: () => Promise<void>) => {
    setPending(true);
    setError(null);
    try {
      await action();
      onDone();
      await queryClient.invalidateQueries({ queryKey: trpc.tools.files.queryKey() });
    } catch (err) {
      setError(errorSentence(err as Error));
    } finally {
      setPending(false);
    }
  };

  const rename = (to: string) =>
    settle(async () => {
      await client.tools.file.rename.mutate({ from: active, to });
      files.renamed(active, to);
      forgetPreview(active);
    });

  const remove = () =>
    settle(async () => {
      drafts.cancel(active);
      await client.tools.file.remove.mutate({ path: active });
      if (!files.close(active)) router.push("/tools");
    });

  return { save, takeTheirs, rename, remove, pending, error, clearError: () => setError(null) };
}
