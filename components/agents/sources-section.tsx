"use client";
// "What this agent can use": one card per source, Add a source (the palette), and Show as text for the entry
// strings. A call hook in the tree, and a tree that could not be read, are said here.
import { Plus, Type } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { Problem } from "@/server/agents/declaration";
import type { EntryDrift } from "@/server/agents/drift";
import type { HookInfo } from "@/server/agents/hook";
import type { PermissionLevel } from "@/server/agents/permissions";
import type { Capability } from "@/server/operations/capabilities";
import type { Source } from "@/server/catalog/sources";
import { joinEntry, problemsAt, sourceOf, splitEntry, type DraftTool } from "./draft";
import { EditorSection } from "./editor-section";
import { EntriesText } from "./entries-text";
import { HookNote } from "./hook-note";
import { SourceCard } from "./source-card";
import { SourcePalette } from "./source-palette";
import { ToolChangesPanel, type Acceptance } from "./tool-changes-panel";

export function SourcesSection({
  tools,
  sources,
  capabilities,
  treeError,
  hook,
  drift,
  agentDefault,
  problems,
  unaccepted,
  acceptance,
  onChange,
}: {
  tools: DraftTool[];
  sources: readonly Source[];
  capabilities: readonly Capability[];
  treeError: string | null;
  hook: HookInfo;
  drift: readonly EntryDrift[];
  agentDefault: PermissionLevel;
  problems: readonly Problem[];
  /** Per saved MCP entry (its index and its entry string), the tools a run withholds until a builder accepts them. */
  unaccepted: ReadonlyArray<{ index: number; entry: string }>;
  acceptance: Acceptance;
  onChange: (tools: DraftTool[]) => void;
}) {
  const [asText, setAsText] = useState(false);
  const [adding, setAdding] = useState(false);
  const added = new Set(tools.map((t) => splitEntry(t.entry).source));

  function add(source: Source, operations: string[] | null) {
    const at = tools.findIndex((t) => splitEntry(t.entry).source === source.entry);
    if (at === -1) return onChange([...tools, { entry: joinEntry(source.entry, operations), settings: {}, permissions: {} }]);
    const now = splitEntry(tools[at]!.entry).operations;
    if (now === null || operations === null) return;
    const wanted = new Set([...now, ...operations]);
    const entry = joinEntry(source.entry, source.operations.map((op) => op.name).filter((n) => wanted.has(n)));
    onChange(tools.map((t, i) => (i === at ? { ...t, entry } : t)));
  }

  // Two entries of one source would share a key: count them apart.
  const seen = new Map<string, number>();
  const keyOf = (entry: string) => {
    const source = splitEntry(entry).source;
    const n = (seen.get(source) ?? 0) + 1;
    seen.set(source, n);
    return `${source}#${n}`;
  };

  // A saved entry's changes show on the first card of the same server, wherever the draft has moved it.
  const changesAt = new Map<number, number>();
  for (const { index, entry } of unaccepted) {
    const at = tools.findIndex((t, i) => !changesAt.has(i) && splitEntry(t.entry).source.toLowerCase() === splitEntry(entry).source.toLowerCase());
    if (at !== -1) changesAt.set(at, index);
  }

  return (
    <EditorSection
      id="uses"
      title="What this agent can use"
      lede="The sources it may call, the operations of each it may use, and which ones ask you first."
      action={
        <div className="flex gap-2">
          <Button size="sm" variant="ghost" aria-pressed={asText} onClick={() => setAsText(!asText)}>
            <Type aria-hidden className="h-3.5 w-3.5" /> {asText ? "Show as cards" : "Show as text"}
          </Button>
          <Button size="sm" onClick={() => setAdding(true)}>
            <Plus aria-hidden className="h-3.5 w-3.5" /> Add a source
          </Button>
        </div>
      }
    >
      <SourcePalette
        open={adding}
        onOpenChange={setAdding}
        // An agent is never its own specialist (R-spec-cycle): the palette lists only the others.
        sources={sources.filter((s) => s.entry !== `agent:${acceptance.agentId}`)}
        capabilities={capabilities}
        treeError={treeError}
        added={added}
        onAdd={add}
      />
      {hook.present ? <HookNote hook={hook} sources={sources} /> : null}
      {treeError ? (
        <p role="alert" className="mb-3 text-xs text-red-600">
          {treeError}
        </p>
      ) : null}
      {problemsAt(problems, "tools").map((message, i) => (
        <p key={i} className="mb-2 text-xs text-red-600">
          {message}
        </p>
      ))}
      {asText ? (
        <EntriesText tools={tools} problems={problems} onChange={onChange} />
      ) : tools.length === 0 ? (
        <div className="rounded-lg border border-dashed border-zinc-300 p-6 text-center dark:border-zinc-700">
          <p className="text-sm font-medium">Nothing yet — Add a source</p>
          <p className="mx-auto mb-3 mt-1 max-w-sm text-xs text-zinc-500 dark:text-zinc-400">
            Without sources this agent can only talk. Add files it may read, the web, or a tool file of the tree, then tick the operations it may
            use.
          </p>
          <Button size="sm" variant="primary" onClick={() => setAdding(true)}>
            <Plus aria-hidden className="h-3.5 w-3.5" /> Add a source
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-3">
          {tools.map((tool, index) => {
            const source = sourceOf(tool.entry, sources);
            const name = splitEntry(tool.entry).source;
            return (
              <SourceCard
                key={keyOf(tool.entry)}
                index={index}
                tool={tool}
                source={source}
                problems={problems}
                drift={drift.find((d) => splitEntry(d.entry).source === name)?.changes ?? []}
                hook={hook}
                agentDefault={agentDefault}
                notice={changesAt.has(index) ? <ToolChangesPanel entry={changesAt.get(index)!} source={source} acceptance={acceptance} /> : null}
                onChange={(next) => onChange(tools.map((t, i) => (i === index ? next : t)))}
                onRemove={() => onChange(tools.filter((_, i) => i !== index))}
              />
            );
          })}
        </div>
      )}
    </EditorSection>
  );
}
