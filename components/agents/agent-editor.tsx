"use client";
// /agents/<id>: one column a builder reads top to bottom (About, Model, What this agent can use, Limits,
// Versions) and, always beside it, what the model sees. Save (Ctrl/Cmd+S) sends the draft on the version it
// was based on; every problem shows at its field and in the summary; leaving with unsaved changes warns.
import { keepPreviousData, useQuery, useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Play, Save } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { PageHeader } from "@/components/frame/page-header";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import { AboutSection } from "./about-section";
import { ConflictBanner } from "./conflict-banner";
import { localProblems, mergeProblems, placeOf, toDeclaration } from "./draft";
import { problemsOf } from "./errors";
import { ExportButton } from "./export-button";
import { changesAnchor, HeldBackNote } from "./held-back-note";
import { LimitsSection } from "./limits-section";
import { ModelSection } from "./model-section";
import { ModelViewPanel } from "./model-view-panel";
import { ProblemSummary } from "./problem-summary";
import { SourcesSection } from "./sources-section";
import { TriggersSection } from "./triggers-section";
import { useAgentDraft } from "./use-agent-draft";
import { useDebounced } from "./use-debounced";
import { UseFromCode } from "./use-from-code";
import { VersionsList } from "./versions-list";
import { withheldOperations } from "./withheld";

export function AgentEditor({ id }: { id: string }) {
  const trpc = useTRPC();
  const { data: agent } = useSuspenseQuery(trpc.agents.get.queryOptions({ id }));
  const { data: catalog } = useSuspenseQuery(trpc.agents.sources.queryOptions());
  const state = useAgentDraft(agent);
  const { draft, update } = state;
  const [attempted, setAttempted] = useState(false);

  // The server checks what is on screen a moment after typing stops; instructions are long and checked here.
  const settled = useDebounced(draft, 350);
  const validation = useQuery(
    trpc.agents.validate.queryOptions({ declaration: { ...toDeclaration(settled), instructions: "" }, id }, { placeholderData: keepPreviousData }),
  );
  const local = localProblems(draft);
  const problems = mergeProblems(local, validation.data?.problems ?? [], problemsOf(state.saveError));
  const entries = useMemo(() => draft.tools.map((t) => t.entry), [draft.tools]);
  const viewEntries = useDebounced(entries, 200);
  const unaccepted = useMemo(() => agent.unaccepted.map(({ index, tools }) => ({ index, tools, entry: agent.declaration.tools[index]?.entry ?? "" })), [agent]);
  const withheld = useMemo(() => withheldOperations(agent, catalog.sources), [agent, catalog.sources]);

  const save = () => {
    setAttempted(true);
    if (local.length === 0) state.save();
  };
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        saveRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  useEffect(() => {
    if (!state.dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [state.dirty]);

  const otherError = state.saveError && problemsOf(state.saveError).length === 0 && !state.theirs ? errorSentence(state.saveError) : null;
  return (
    <div className="flex h-screen min-h-0 flex-col">
      <PageHeader
        title={draft.name.trim() || "Untitled agent"}
        lede={
          <>
            Version {state.baseVersion} · last saved by {agent.updatedByName ?? "someone since removed"},{" "}
            <Time at={agent.updatedAt} />
            {state.dirty ? (
              <span role="status" className="ml-2 inline-flex items-center gap-1 font-medium text-amber-700 dark:text-amber-400">
                <span aria-hidden className="inline-block h-1.5 w-1.5 rounded-full bg-amber-500" /> Unsaved changes
              </span>
            ) : null}
          </>
        }
        action={
          <div className="flex items-center gap-2">
            <ExportButton id={id} describe={(path) => placeOf(path, entries, catalog.sources)} />
            <Button asChild title="Talk to the saved agent in the playground">
              <Link href={`/agents/${id}/run`}>
                <Play aria-hidden className="h-4 w-4" /> Run
              </Link>
            </Button>
            <Button variant="primary" onClick={save} disabled={state.saving} title="Save (Ctrl+S)">
              <Save aria-hidden className="h-4 w-4" /> {state.saving ? "Saving…" : "Save"}
            </Button>
          </div>
        }
      />
      <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-h-0 overflow-auto px-8 pb-16">
          <div className="mx-auto max-w-3xl">
            {state.theirs ? (
              <ConflictBanner theirs={state.theirs} saving={state.saving} onLoadTheirs={state.loadTheirs} onOverwrite={state.overwrite} />
            ) : null}
            {otherError ? (
              <p role="alert" className="mt-6 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
                {otherError}
              </p>
            ) : null}
            <ProblemSummary problems={problems} entries={entries} sources={catalog.sources} announce={attempted} />
            <HeldBackNote unaccepted={unaccepted} sources={catalog.sources} />
            <div key={state.generation}>
              <AboutSection
                about={{ name: draft.name, description: draft.description, instructions: draft.instructions }}
                problems={problems}
                onChange={(patch) => update((d) => ({ ...d, ...patch }))}
              />
              <ModelSection
                model={draft.model}
                problems={problems}
                onChange={(patch) => update((d) => ({ ...d, model: { ...d.model, ...patch } }))}
                adoption={{ agentId: id, agentName: agent.name, dirty: state.dirty, onAdopted: state.rebase }}
              />
              <SourcesSection
                tools={draft.tools}
                sources={catalog.sources}
                capabilities={catalog.capabilities}
                treeError={catalog.treeError ?? agent.treeError}
                hook={catalog.hook}
                drift={agent.drift}
                agentDefault={draft.policy.permission}
                problems={problems}
                unaccepted={unaccepted}
                acceptance={{ agentId: id, baseVersion: state.baseVersion, dirty: state.dirty, onAccepted: state.rebase }}
                onChange={(tools) => update((d) => ({ ...d, tools }))}
              />
              <LimitsSection policy={draft.policy} problems={problems} onChange={(patch) => update((d) => ({ ...d, policy: { ...d.policy, ...patch } }))} />
              <VersionsList id={id} current={state.baseVersion} />
            </div>
            <UseFromCode agent={{ id, name: agent.name }} />
            <TriggersSection agentId={id} />
          </div>
        </div>
        <div className="min-h-0 border-l border-zinc-200 bg-zinc-50/50 dark:border-zinc-800 dark:bg-zinc-900/40">
          <ModelViewPanel
            entries={viewEntries}
            sources={catalog.sources}
            withheld={withheld}
            review={unaccepted[0] ? changesAnchor(unaccepted[0].index) : null}
          />
        </div>
      </div>
    </div>
  );
}
