"use client";
// The agent page's state: the draft being edited, the saved version it is based on, and Save: a stale base is a
// conflict the page shows (never a silent overwrite), a refused save keeps the draft as it is.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { refusalOf } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import type { AgentDeclaration } from "@/server/agents/declaration";
import type { Theirs } from "./conflict-banner";
import type { AcceptedAgent } from "./tool-changes-panel";
import { fromDeclaration, sameDraft, toDeclaration, type Draft } from "./draft";

type State = {
  draft: Draft;
  /** The saved declaration the draft started from, to tell unsaved changes. */
  baseline: Draft;
  baseVersion: number;
  /** Bumped when the draft is replaced wholesale (Load theirs), so forms holding text start again. */
  generation: number;
};

type Current = { version: number; declaration: AgentDeclaration; savedByName: string | null; savedAt: Date | string };

export function useAgentDraft(agent: { id: string; version: number; declaration: AgentDeclaration }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>(() => {
    const draft = fromDeclaration(agent.declaration);
    return { draft, baseline: draft, baseVersion: agent.version, generation: 0 };
  });
  const [conflict, setConflict] = useState<(Current & { summary: string | null }) | null>(null);
  const save = useMutation(trpc.agents.save.mutationOptions());
  const { reset } = save;

  const update = useCallback(
    (change: (draft: Draft) => Draft) => {
      reset();
      setState((s) => ({ ...s, draft: change(s.draft) }));
    },
    [reset],
  );

  async function summaryOf(version: number): Promise<string | null> {
    const versions = await queryClient.fetchQuery({ ...trpc.agents.versions.queryOptions({ id: agent.id }), staleTime: 0 }).catch(() => []);
    return versions.find((v) => v.version === version)?.summary ?? null;
  }

  function saveNow(baseVersion = state.baseVersion) {
    const sent = state.draft;
    save.mutate(
      { id: agent.id, baseVersion, declaration: toDeclaration(sent) },
      {
        onSuccess: async (saved) => {
          queryClient.setQueryData(trpc.agents.get.queryKey({ id: agent.id }), saved);
          const canonical = fromDeclaration(saved.declaration);
          // Edits made while the save was on its way stay in the draft, as unsaved changes.
          setState((s) => ({ ...s, draft: sameDraft(s.draft, sent) ? canonical : s.draft, baseline: canonical, baseVersion: saved.version }));
          setConflict(null);
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: trpc.agents.versions.queryKey({ id: agent.id }) }),
            queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() }),
          ]);
        },
        onError: async (error) => {
          const { reason, details } = refusalOf(error);
          if (reason !== "STALE_VERSION" || !details?.current) return;
          const current = details.current as Current;
          setConflict({ ...current, summary: null });
          const summary = await summaryOf(current.version);
          setConflict((c) => (c && c.version === current.version ? { ...c, summary } : c));
        },
      },
    );
  }

  /**
   * A version saved beside the draft (an accepted tool change): the page is based on it from now on, and edits not
   * saved yet stay as unsaved changes on top of it (the pins they lack are kept by the next save).
   */
  function rebase(saved: AcceptedAgent) {
    queryClient.setQueryData(trpc.agents.get.queryKey({ id: agent.id }), saved);
    const canonical = fromDeclaration(saved.declaration);
    setState((s) => ({ ...s, draft: sameDraft(s.draft, s.baseline) ? canonical : s.draft, baseline: canonical, baseVersion: saved.version }));
    void queryClient.invalidateQueries({ queryKey: trpc.agents.versions.queryKey({ id: agent.id }) });
  }

  function loadTheirs() {
    if (!conflict) return;
    const theirs = fromDeclaration(conflict.declaration);
    reset();
    setState((s) => ({ draft: theirs, baseline: theirs, baseVersion: conflict.version, generation: s.generation + 1 }));
    setConflict(null);
    void queryClient.invalidateQueries({ queryKey: trpc.agents.get.queryKey({ id: agent.id }) });
  }

  const theirs: Theirs | null = conflict
    ? { version: conflict.version, savedByName: conflict.savedByName, savedAt: conflict.savedAt, summary: conflict.summary }
    : null;

  return {
    ...state,
    dirty: !sameDraft(state.draft, state.baseline),
    update,
    save: saveNow,
    saving: save.isPending,
    saveError: save.error,
    theirs,
    loadTheirs,
    rebase,
    overwrite: () => conflict && saveNow(conflict.version),
  };
}
