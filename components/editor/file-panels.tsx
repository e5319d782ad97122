"use client";
// The editor's right-hand side: what the model sees of the open file, its settings, Try it and History.
import * as Tabs from "@radix-ui/react-tabs";
import { memo, useDeferredValue, useMemo } from "react";
import type { CatalogFile } from "@/server/host/protocol";
import type { BusyFlag } from "./busy-flag";
import { HistoryPanel } from "./history-panel";
import { SchemaPreview } from "./schema-preview";
import { SettingsPreview } from "./settings-preview";
import { TryItPanel } from "./try-it-panel";

const tabs = [
  ["preview", "Schema preview"],
  ["settings", "Settings"],
  ["try", "Try it"],
  ["history", "History"],
] as const;

// Memoised, so the render that brings an answer to the schema preview leaves them as they are until their deferred
// props follow (R-preview-first).
const LaterSettings = memo(SettingsPreview);
const LaterTryIt = memo(TryItPanel);
const StillHistory = memo(HistoryPanel);

// Memoised: the editor re-renders on every keystroke, and none of this changes until the next derivation answers,
// so typing spends no time on the cards (R-preview-pause).
export const FilePanels = memo(function FilePanels({
  path,
  shown,
  stale,
  busy,
  unsaved,
}: {
  path: string;
  /** The newest good derivation of the buffer, or null before the first. */
  shown: CatalogFile | null;
  stale: boolean;
  /** Whether a derivation is awaited: read by the preview itself, so this panel does not re-render for it. */
  busy: BusyFlag;
  unsaved: boolean;
}) {
  // The schema preview paints with the answer; what else reads the derivation (Try it's form, the settings) renders
  // after, as a transition that yields to the frame, with the path it goes with (R-preview-first).
  const later = useDeferredValue(useMemo(() => ({ path, shown }), [path, shown]));
  return (
    <Tabs.Root defaultValue="preview" className="flex w-[26rem] shrink-0 flex-col border-l border-zinc-200 dark:border-zinc-800">
      <Tabs.List aria-label="About this file" className="flex border-b border-zinc-200 text-sm dark:border-zinc-800">
        {tabs.map(([value, label]) => (
          <Tabs.Trigger
            key={value}
            value={value}
            className="px-3 py-2 text-zinc-500 dark:text-zinc-400 data-[state=active]:border-b-2 data-[state=active]:border-accent data-[state=active]:text-zinc-900 dark:data-[state=active]:text-zinc-50"
          >
            {label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value="preview" className="min-h-0 flex-1 overflow-auto" aria-label="Schema preview">
        <SchemaPreview entry={shown} stale={stale} busy={busy} />
        {later.shown ? <LaterSettings schema={later.shown.settings_schema} path={later.path} /> : null}
      </Tabs.Content>
      <Tabs.Content value="settings" className="min-h-0 flex-1 overflow-auto">
        <LaterSettings schema={later.shown?.settings_schema ?? null} path={later.path} />
      </Tabs.Content>
      {/* Kept mounted: a call under way keeps streaming while another tab is shown. */}
      <Tabs.Content value="try" forceMount className="min-h-0 flex-1 overflow-auto data-[state=inactive]:hidden">
        <LaterTryIt key={later.path} path={later.path} entry={later.shown} unsaved={unsaved} />
      </Tabs.Content>
      <Tabs.Content value="history" className="min-h-0 flex-1 overflow-auto">
        <StillHistory path={path} />
      </Tabs.Content>
    </Tabs.Root>
  );
});
