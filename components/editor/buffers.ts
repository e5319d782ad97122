// The open files of the editor and what is known of each: the saved version the edits started from,
// the current text, a save's conflict, and the live preview. A reducer, so every change is one action.
import type { CatalogFile } from "@/server/host/protocol";
import { applyPreview, emptyPreview, type PreviewState } from "./preview-state";

export type Version = { source: string; hash: string };

export type Buffer = {
  path: string;
  /** The saved version the edits started from: a save names its hash. */
  base: Version;
  source: string;
  /** When unsaved edits were restored from the server on opening, their time. */
  restoredAt: Date | null;
  /** The version on disk that a save collided with, until the person resolves it. */
  conflict: Version | null;
  saving: boolean;
  saveError: string | null;
  preview: PreviewState;
};

export type Buffers = { order: string[]; byPath: Record<string, Buffer> };

export type BufferAction =
  | { type: "opened"; path: string; file: Version; draft: { source: string; baseHash: string; updatedAt: Date } | null }
  | { type: "edited"; path: string; source: string }
  | { type: "saving"; path: string }
  | { type: "saved"; path: string; version: Version }
  | { type: "conflict"; path: string; current: Version }
  | { type: "saveFailed"; path: string; message: string }
  | { type: "resolved"; path: string; base: Version }
  | { type: "previewed"; path: string; entry: CatalogFile }
  | { type: "closed"; path: string }
  | { type: "renamed"; from: string; to: string };

export const noBuffers: Buffers = { order: [], byPath: {} };

export function isDirty(buffer: Buffer): boolean {
  return buffer.source !== buffer.base.source;
}

/**
 * Whether the editor must draw again after `action` took the buffers from `before` to `after`. A key only moves a
 * buffer's text, which Monaco already shows: it is drawn when something drawn from it changes — saved against unsaved,
 * a save's error it clears, or a conflict whose merge view shows the text. Every other action is drawn
 * (R-editor-key-quiet).
 */
export function drawsChange(before: Buffers, after: Buffers, action: BufferAction): boolean {
  if (action.type !== "edited") return true;
  const was = before.byPath[action.path];
  const now = after.byPath[action.path];
  if (!was || !now) return was !== now;
  return isDirty(was) !== isDirty(now) || was.saveError !== now.saveError || now.conflict !== null;
}

function update(state: Buffers, path: string, change: (buffer: Buffer) => Buffer): Buffers {
  const buffer = state.byPath[path];
  return buffer ? { ...state, byPath: { ...state.byPath, [path]: change(buffer) } } : state;
}

export function buffersReducer(state: Buffers, action: BufferAction): Buffers {
  switch (action.type) {
    case "opened": {
      if (state.byPath[action.path]) return state;
      const { file, draft } = action;
      // A draft made against an older version keeps that older base: saving it then meets the
      // newer file as a conflict and shows the diff, so neither side is lost.
      const restored = draft && draft.source !== file.source ? draft : null;
      const base = restored && restored.baseHash !== file.hash ? { source: file.source, hash: restored.baseHash } : file;
      const buffer: Buffer = {
        path: action.path,
        base,
        source: restored ? restored.source : file.source,
        restoredAt: restored ? restored.updatedAt : null,
        conflict: null,
        saving: false,
        saveError: null,
        preview: emptyPreview,
      };
      return { order: [...state.order, action.path], byPath: { ...state.byPath, [action.path]: buffer } };
    }
    case "edited":
      return update(state, action.path, (b) => ({ ...b, source: action.source, saveError: null }));
    case "saving":
      return update(state, action.path, (b) => ({ ...b, saving: true, saveError: null }));
    case "saved":
      return update(state, action.path, (b) => ({
        ...b,
        saving: false,
        conflict: null,
        restoredAt: null,
        base: action.version,
      }));
    case "conflict":
      return update(state, action.path, (b) => ({ ...b, saving: false, conflict: action.current }));
    case "saveFailed":
      return update(state, action.path, (b) => ({ ...b, saving: false, saveError: action.message }));
    case "resolved":
      return update(state, action.path, (b) => ({ ...b, conflict: null, base: action.base }));
    case "previewed":
      return update(state, action.path, (b) => ({ ...b, preview: applyPreview(b.preview, action.entry) }));
    case "closed": {
      const byPath = { ...state.byPath };
      delete byPath[action.path];
      return { order: state.order.filter((p) => p !== action.path), byPath };
    }
    case "renamed": {
      const buffer = state.byPath[action.from];
      if (!buffer) return state;
      const byPath = { ...state.byPath, [action.to]: { ...buffer, path: action.to } };
      delete byPath[action.from];
      return { order: state.order.map((p) => (p === action.from ? action.to : p)), byPath };
    }
  }
}
