"use client";
// The tool editor: the tree's files, Monaco with tabs and the Problems strip, and beside it what the
// model sees, derived live from the unsaved buffer by the tool host.
import Editor from "@monaco-editor/react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import type { editor } from "monaco-editor";
import { Pencil, Save, Trash2, Upload } from "lucide-react";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from "react";
import { NewFileDialog } from "@/components/tools/new-file-dialog";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import type { AppRouter } from "@/server/trpc/router";
import { buffersReducer, isDirty, noBuffers, type Buffers } from "./buffers";
import { ConflictView } from "./conflict-view";
import { EditorTabs } from "./editor-tabs";
import { DeleteDialog, RenameDialog } from "./file-actions";
import { FileList } from "./file-list";
import { FilePanels } from "./file-panels";
import { LatestOnly } from "./latest-only";
import { ProblemsStrip } from "./problems-strip";
import { QuickOpen } from "./quick-open";
import { PublishDialog } from "./publish-dialog";
import { TRY_RUN_EVENT } from "./try-it-panel";
import { useDrafts } from "./use-drafts";
import { useMonaco } from "./use-monaco";

/** The issue allows at most 150 ms between the last keystroke and the preview request. */
export const PREVIEW_DEBOUNCE_MS = 120;

type Dialogs = "new" | "rename" | "delete" | "open" | "publish" | null;

function urlFor(path: string) {
  return `/tools/${encodeURIComponent(path)}`;
}

function conflictOf(err: unknown): { source: string; hash: string } | null {
  if (!(err instanceof TRPCClientError)) return null;
  const domain = (err as TRPCClientError<AppRouter>).data?.domain;
  if (domain?.reason !== "CONFLICT") return null;
  return (domain.details as { current?: { source: string; hash: string } } | null)?.current ?? null;
}

export function ToolEditor({ initialPath }: { initialPath: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { monaco, error: monacoError } = useMonaco();
  const [buffers, dispatch] = useReducer(buffersReducer, noBuffers);
  const latestBuffers = useRef<Buffers>(buffers);
  useLayoutEffect(() => {
    latestBuffers.current = buffers;
  });
  const [active, setActive] = useState(initialPath);
  const [openError, setOpenError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialogs>(null);
  const [fileActionError, setFileActionError] = useState<string | null>(null);
  const [filePending, setFilePending] = useState(false);
  const editorRef = useRef<editor.IStandaloneCodeEditor | null>(null);
  const previews = useRef(new Map<string, LatestOnly>());
  const [previewPending, setPreviewPending] = useState(false);
  const drafts = useDrafts();
  const files = useQuery(trpc.tools.files.queryOptions());
  // Who would lose a file's operations: asked only when a deletion is being confirmed.
  const agents = useQuery({ ...trpc.agents.list.queryOptions(), enabled: dialog === "delete" });
  const buffer = buffers.byPath[active];

  /** Reads a file into a buffer (with its draft), unless it is open already. */
  const load = useCallback(
    (path: string): Promise<void> => {
      if (latestBuffers.current.byPath[path]) return Promise.resolve();
      return queryClient.fetchQuery({ ...trpc.tools.read.queryOptions({ path }), staleTime: 0 }).then(
        ({ file, draft }) =>
          dispatch({ type: "opened", path, file, draft: draft && { ...draft, updatedAt: new Date(draft.updatedAt) } }),
        (err: Error) => setOpenError(err.message),
      );
    },
    [queryClient, trpc],
  );

  /** Shows a file, opening it as a tab; the address follows without a page navigation, so tabs survive. */
  const open = useCallback(
    (path: string, push = true) => {
      setOpenError(null);
      setActive(path);
      if (push && window.location.pathname !== urlFor(path)) window.history.pushState(null, "", urlFor(path));
      return load(path);
    },
    [load],
  );

  useEffect(() => {
    void load(initialPath);
  }, [initialPath, load]);

  useEffect(() => {
    const onPop = () => {
      const path = decodeURIComponent(window.location.pathname.replace(/^\/tools\//, ""));
      if (path) void open(path, false);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [open]);

  // The live preview: the unsaved buffer goes to the tool host; only the newest answer is shown.
  const source = buffer?.source;
  useEffect(() => {
    if (source === undefined) return;
    const path = active;
    const timer = setTimeout(() => {
      let latest = previews.current.get(path);
      if (!latest) previews.current.set(path, (latest = new LatestOnly()));
      const seq = latest.next();
      setPreviewPending(true);
      client.tools.preview.mutate({ path, source }).then(
        (entry) => {
          if (latest.accept(seq)) dispatch({ type: "previewed", path, entry });
          setPreviewPending(latest.pending);
        },
        () => setPreviewPending(latest.pending),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [active, source, client]);

  // Markers at the lines of the Problems.
  const problems = buffer?.preview.problems;
  useEffect(() => {
    if (!monaco || !problems) return;
    const model = monaco.editor.getModel(monaco.Uri.parse(active));
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      "quiver",
      problems.map((problem) => {
        const line = Math.min(Math.max(problem.line ?? 1, 1), model.getLineCount());
        return {
          severity: monaco.MarkerSeverity.Error,
          message: problem.message,
          startLineNumber: line,
          startColumn: model.getLineFirstNonWhitespaceColumn(line) || 1,
          endLineNumber: line,
          endColumn: model.getLineMaxColumn(line),
        };
      }),
    );
  }, [monaco, problems, active]);

  const replaceText = useCallback(
    (path: string, text: string) => {
      const model = monaco?.editor.getModel(monaco.Uri.parse(path));
      // An edit operation, not setValue: the change stays on the undo stack.
      if (model && model.getValue() !== text) {
        model.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null);
      }
    },
    [monaco],
  );

  const save = useCallback(
    async (path: string, text?: string, baseHash?: string) => {
      const current = latestBuffers.current.byPath[path];
      if (!current || current.saving) return;
      const body = text ?? current.source;
      dispatch({ type: "saving", path });
      drafts.cancel(path);
      try {
        const saved = await client.tools.file.save.mutate({ path, source: body, baseHash: baseHash ?? current.base.hash });
        if (text !== undefined) {
          replaceText(path, text);
          dispatch({ type: "edited", path, source: text });
        }
        dispatch({ type: "saved", path, version: { source: saved.source, hash: saved.hash } });
        await queryClient.invalidateQueries({ queryKey: trpc.tools.files.queryKey() });
      } catch (err) {
        const theirs = conflictOf(err);
        if (theirs) dispatch({ type: "conflict", path, current: theirs });
        else dispatch({ type: "saveFailed", path, message: (err as Error).message });
      }
    },
    [client, drafts, queryClient, replaceText, trpc],
  );

  // Keyboard: Ctrl/Cmd+S saves and Ctrl/Cmd+P opens a file, wherever the focus is.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      if (key === "s") {
        event.preventDefault();
        void save(active);
      } else if (key === "p") {
        event.preventDefault();
        setDialog("open");
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [active, save]);

  const close = (path: string) => {
    const remaining = buffers.order.filter((p) => p !== path);
    monaco?.editor.getModel(monaco.Uri.parse(path))?.dispose();
    dispatch({ type: "closed", path });
    if (path === active && remaining.length > 0) void open(remaining[remaining.length - 1]!);
  };

  const fileAction = async (action: () => Promise<void>) => {
    setFilePending(true);
    setFileActionError(null);
    try {
      await action();
      setDialog(null);
      await queryClient.invalidateQueries({ queryKey: trpc.tools.files.queryKey() });
    } catch (err) {
      setFileActionError((err as Error).message);
    } finally {
      setFilePending(false);
    }
  };

  const rename = (to: string) =>
    fileAction(async () => {
      await client.tools.file.rename.mutate({ from: active, to });
      const text = monaco?.editor.getModel(monaco.Uri.parse(active))?.getValue();
      monaco?.editor.getModel(monaco.Uri.parse(active))?.dispose();
      if (text !== undefined) monaco?.editor.createModel(text, "python", monaco.Uri.parse(to));
      dispatch({ type: "renamed", from: active, to });
      previews.current.delete(active);
      setActive(to);
      window.history.replaceState(null, "", urlFor(to));
    });

  const remove = () =>
    fileAction(async () => {
      drafts.cancel(active);
      await client.tools.file.remove.mutate({ path: active });
      const remaining = buffers.order.filter((p) => p !== active);
      monaco?.editor.getModel(monaco.Uri.parse(active))?.dispose();
      dispatch({ type: "closed", path: active });
      if (remaining.length > 0) void open(remaining[remaining.length - 1]!);
      else router.push("/tools");
    });

  const listed = (files.data?.files ?? []).map((file) => {
    const open = buffers.byPath[file.path];
    return {
      path: file.path,
      problems: open?.preview.shown ? open.preview.problems.length : file.errors.length,
      unsaved: open ? isDirty(open) : false,
    };
  });
  const shown = buffer?.preview.shown ?? null;

  return (
    <div className="flex h-screen min-h-0">
      <FileList files={listed} active={active} onOpen={(path) => void open(path)} onNew={() => setDialog("new")} />
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <h1 className="font-mono text-sm font-semibold">{active}</h1>
          <span role="status" className="text-xs text-zinc-500">
            {!buffer
              ? ""
              : buffer.saving
                ? "Saving…"
                : buffer.saveError
                  ? ""
                  : isDirty(buffer)
                    ? drafts.unkept.has(active)
                      ? "Unsaved"
                      : "Unsaved · draft kept"
                    : "Saved"}
          </span>
          {buffer?.restoredAt ? (
            <span className="text-xs text-zinc-500">
              Restored your unsaved edits from {buffer.restoredAt.toLocaleString()}.
            </span>
          ) : null}
          <div className="ml-auto flex gap-1">
            <Button variant="ghost" size="sm" onClick={() => { setFileActionError(null); setDialog("rename"); }} disabled={!buffer}>
              <Pencil aria-hidden className="h-3.5 w-3.5" /> Rename
            </Button>
            <Button variant="ghost" size="sm" onClick={() => { setFileActionError(null); setDialog("delete"); }} disabled={!buffer}>
              <Trash2 aria-hidden className="h-3.5 w-3.5" /> Delete
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setDialog("publish")}>
              <Upload aria-hidden className="h-3.5 w-3.5" /> Publish
            </Button>
            <Button
              variant="primary"
              size="sm"
              title="Save (Ctrl+S)"
              onClick={() => void save(active)}
              disabled={!buffer || buffer.saving || !!buffer.conflict}
            >
              <Save aria-hidden className="h-3.5 w-3.5" /> Save
            </Button>
          </div>
        </div>
        {buffer?.saveError ? (
          <p role="alert" className="border-b border-red-200 bg-red-50 px-3 py-1.5 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
            Not saved: {buffer.saveError}
          </p>
        ) : null}
        <EditorTabs
          tabs={buffers.order.map((path) => ({ path, dirty: isDirty(buffers.byPath[path]!) }))}
          active={active}
          onSelect={(path) => void open(path)}
          onClose={close}
        />
        {openError ? (
          <p role="alert" className="m-4 text-sm text-red-600">{openError}</p>
        ) : monacoError ? (
          <p role="alert" className="m-4 text-sm text-red-600">The code editor could not load: {monacoError.message}</p>
        ) : !monaco || !buffer ? (
          <p className="m-4 text-sm text-zinc-500">Opening {active}…</p>
        ) : buffer.conflict ? (
          <ConflictView
            path={active}
            theirs={buffer.conflict}
            mine={buffer.source}
            saving={buffer.saving}
            onSaveMerge={(merged) => void save(active, merged, buffer.conflict!.hash)}
            onTakeTheirs={() => {
              const theirs = buffer.conflict!;
              replaceText(active, theirs.source);
              dispatch({ type: "edited", path: active, source: theirs.source });
              dispatch({ type: "resolved", path: active, base: theirs });
              drafts.keep(active, theirs.source, theirs);
            }}
          />
        ) : (
          <div className="min-h-0 flex-1" data-testid="code-editor">
            <Editor
              path={active}
              defaultValue={buffer.source}
              language="python"
              keepCurrentModel
              options={{ fontSize: 13, minimap: { enabled: false }, scrollBeyondLastLine: false, tabSize: 4, automaticLayout: true }}
              onMount={(mounted, loaded) => {
                editorRef.current = mounted;
                // Monaco keeps Ctrl/Cmd+Enter for itself; hand it to Try it as the page promises.
                mounted.addCommand(loaded.KeyMod.CtrlCmd | loaded.KeyCode.Enter, () =>
                  window.dispatchEvent(new Event(TRY_RUN_EVENT)),
                );
                mounted.focus();
              }}
              onChange={(value) => {
                const current = latestBuffers.current.byPath[active];
                if (!current || value === undefined) return;
                dispatch({ type: "edited", path: active, source: value });
                drafts.keep(active, value, current.base);
              }}
            />
          </div>
        )}
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
      </div>
      <FilePanels
        path={active}
        shown={shown}
        stale={buffer?.preview.stale ?? false}
        pending={previewPending}
        unsaved={buffer ? isDirty(buffer) : false}
      />
      <NewFileDialog
        open={dialog === "new"}
        onOpenChange={(o) => setDialog(o ? "new" : null)}
        onCreated={(path) => void open(path)}
      />
      <PublishDialog open={dialog === "publish"} onOpenChange={(o) => setDialog(o ? "publish" : null)} />
      <QuickOpen
        open={dialog === "open"}
        onOpenChange={(o) => setDialog(o ? "open" : null)}
        files={listed.map((f) => f.path)}
        onPick={(path) => void open(path)}
      />
      {buffer ? (
        <>
          <RenameDialog
            key={`rename-${active}`}
            path={active}
            open={dialog === "rename"}
            onOpenChange={(o) => setDialog(o ? "rename" : null)}
            onRename={(to) => void rename(to)}
            pending={filePending}
            error={fileActionError}
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
            onDelete={() => void remove()}
            pending={filePending}
            error={fileActionError}
          />
        </>
      ) : null}
    </div>
  );
}
