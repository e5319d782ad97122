"use client";
// The tool editor: the tree's files, Monaco with tabs and the Problems strip, and beside it what the
// model sees, derived live from the unsaved buffer by the tool host. Each concern is a hook of its own:
// the tabs (use-open-files), the preview (use-preview), the markers, the server's file actions, the keys.
import { useQuery } from "@tanstack/react-query";
import type { editor } from "monaco-editor";
import { useRef, useState } from "react";
import { DepsPanel } from "@/components/tools/deps-status";
import { HookPanel } from "@/components/tools/hook-panel";
import { NewFileDialog } from "@/components/tools/new-file-dialog";
import { ProjectFilesList } from "@/components/tools/project-files-list";
import { useTRPC } from "@/components/trpc/provider";
import { isDependencyFile, isProjectFile, PROJECT_FILES } from "@/server/tree/project-names";
import { isDirty } from "./buffers";
import { CodePane } from "./code-pane";
import { EditorTabs } from "./editor-tabs";
import { EditorToolbar } from "./editor-toolbar";
import { DeleteDialog, RenameDialog } from "./file-actions";
import { FileList } from "./file-list";
import { FilePanels } from "./file-panels";
import type { Monaco } from "./monaco-setup";
import { ProblemsStrip } from "./problems-strip";
import { PublishDialog } from "./publish-dialog";
import { QuickOpen } from "./quick-open";
import { useDrafts } from "./use-drafts";
import { useFileActions } from "./use-file-actions";
import { useLatestCallback } from "./use-latest-callback";
import { useMonaco } from "./use-monaco";
import { useOpenFiles } from "./use-open-files";
import { usePreview } from "./use-preview";
import { useProblemMarkers } from "./use-problem-markers";
import { bindRunKey, useShortcuts } from "./use-shortcuts";

type Dialogs = "new" | "rename" | "delete" | "open" | "publish" | null;

export function ToolEditor({ initialPath }: { initialPath: string }) {
  const trpc = useTRPC();
  const { monaco, error: monacoError } = useMonaco();
  const files = useOpenFiles(initialPath, monaco);
  const { buffers, latest, dispatch, active, open } = files;
  const buffer = buffers.byPath[active];
  const [dialog, setDialog] = useState<Dialogs>(null);
  const editorRef = useRef<editor.IStandaloneCodeEditor | null>(null);
  const drafts = useDrafts();
  const preview = usePreview(active, buffer?.source, latest, dispatch);
  useProblemMarkers(monaco, active, buffer?.preview.problems);
  const actions = useFileActions({ files, monaco, drafts, forgetPreview: preview.forget, onDone: () => setDialog(null) });
  useShortcuts({ save: () => void actions.save(active), quickOpen: () => setDialog("open") });
  const listing = useQuery(trpc.tools.files.queryOptions());
  // Who would lose a file's operations: asked only when a deletion is being confirmed.
  const agents = useQuery({ ...trpc.agents.list.queryOptions(), enabled: dialog === "delete" });

  const listed = (listing.data?.files ?? []).map((file) => {
    const opened = buffers.byPath[file.path];
    return {
      path: file.path,
      problems: opened?.preview.shown ? opened.preview.problems.length : file.errors.length,
      unsaved: opened ? isDirty(opened) : false,
    };
  });
  const shown = buffer?.preview.shown ?? null;
  // A project file beside the tree (R-deps-edit) keeps its name and has no tools: its own panel instead of the preview.
  const project = isProjectFile(active);
  const unsavedProject = new Set(PROJECT_FILES.filter((name) => buffers.byPath[name] && isDirty(buffers.byPath[name])));
  // Steady callbacks for the memoised code pane, so a keystroke's render leaves it alone (R-preview-editor-still).
  const onMount = useLatestCallback((mounted: editor.IStandaloneCodeEditor, loaded: Monaco) => {
    editorRef.current = mounted;
    bindRunKey(mounted, loaded);
    mounted.focus();
  });
  const onChange = useLatestCallback((value: string) => {
    const current = latest.current.byPath[active];
    if (!current) return;
    // Before React renders the edit: the pause starts at the key (R-preview-from-key).
    preview.typed(active, value);
    dispatch({ type: "edited", path: active, source: value });
    drafts.keep(active, value, current.base);
  });
  const onSaveMerge = useLatestCallback((merged: string) => void actions.save(active, merged, buffer?.conflict?.hash));
  const onTakeTheirs = useLatestCallback(() => actions.takeTheirs(active));
  const openDialog = (which: "rename" | "delete") => {
    actions.clearError();
    setDialog(which);
  };

  return (
    <div className="flex h-screen min-h-0">
      <FileList files={listed} active={active} onOpen={(path) => void open(path)} onNew={() => setDialog("new")}>
        <ProjectFilesList active={active} unsaved={unsavedProject} onOpen={(path) => void open(path)} />
      </FileList>
      <div className="flex min-w-0 flex-1 flex-col">
        <EditorToolbar
          path={active}
          buffer={buffer}
          draftKept={!drafts.unkept.has(active)}
          fixedName={project}
          onRename={() => openDialog("rename")}
          onDelete={() => openDialog("delete")}
          onPublish={() => setDialog("publish")}
          onSave={() => void actions.save(active)}
        />
        <EditorTabs
          tabs={buffers.order.map((path) => ({ path, dirty: isDirty(buffers.byPath[path]!) }))}
          active={active}
          onSelect={(path) => void open(path)}
          onClose={files.close}
        />
        <CodePane
          path={active}
          buffer={buffer}
          monaco={monaco}
          monacoError={monacoError}
          openError={files.openError}
          onMount={onMount}
          onChange={onChange}
          onSaveMerge={onSaveMerge}
          onTakeTheirs={onTakeTheirs}
        />
        {project ? null : (
          <ProblemsStrip
            problems={buffer?.preview.problems ?? []}
            onGoTo={(line) => {
              const mounted = editorRef.current;
              if (!mounted) return;
              mounted.setPosition({ lineNumber: line, column: 1 });
              mounted.revealLineInCenter(line);
              mounted.focus();
            }}
          />
        )}
      </div>
      {project ? (
        <aside aria-label="About this file" className="flex w-[26rem] shrink-0 flex-col border-l border-zinc-200 dark:border-zinc-800">
          {isDependencyFile(active) ? <DepsPanel /> : <HookPanel />}
        </aside>
      ) : (
        <FilePanels path={active} shown={shown} stale={buffer?.preview.stale ?? false} busy={preview.busy} unsaved={buffer ? isDirty(buffer) : false} />
      )}
      <NewFileDialog open={dialog === "new"} onOpenChange={(o) => setDialog(o ? "new" : null)} onCreated={(path) => void open(path)} />
      <PublishDialog open={dialog === "publish"} onOpenChange={(o) => setDialog(o ? "publish" : null)} />
      <QuickOpen
        open={dialog === "open"}
        onOpenChange={(o) => setDialog(o ? "open" : null)}
        files={[...listed.map((f) => f.path), ...PROJECT_FILES]}
        onPick={(path) => void open(path)}
      />
      {buffer ? (
        <>
          <RenameDialog
            key={`rename-${active}`}
            path={active}
            open={dialog === "rename"}
            onOpenChange={(o) => setDialog(o ? "rename" : null)}
            onRename={(to) => void actions.rename(to)}
            pending={actions.pending}
            error={actions.error}
          />
          <DeleteDialog
            path={active}
            operations={shown?.tools.map((t) => t.name) ?? []}
            usedBy={
              agents.data
                ? agents.data.filter((a) => a.entries.some((entry) => entry.split("#")[0] === `tools/${active}`)).map((a) => a.name)
                : null
            }
            open={dialog === "delete"}
            onOpenChange={(o) => setDialog(o ? "delete" : null)}
            onDelete={() => void actions.remove()}
            pending={actions.pending}
            error={actions.error}
          />
        </>
      ) : null}
    </div>
  );
}
