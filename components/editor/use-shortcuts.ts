"use client";
// The editor's keys, as the page promises: Ctrl/Cmd+S saves and Ctrl/Cmd+P opens a file wherever the focus is;
// Ctrl/Cmd+Enter in the code runs Try it.
import type { editor } from "monaco-editor";
import { useEffect, useLayoutEffect, useRef } from "react";
import type { Monaco } from "./monaco-setup";
import { TRY_RUN_EVENT } from "./try-it-panel";

export function useShortcuts(keys: { save: () => void; quickOpen: () => void }) {
  // The newest handlers, so the listener is added once and never acts on a file no longer shown.
  const latest = useRef(keys);
  useLayoutEffect(() => {
    latest.current = keys;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      if (key === "s") {
        event.preventDefault();
        latest.current.save();
      } else if (key === "p") {
        event.preventDefault();
        latest.current.quickOpen();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** Monaco keeps Ctrl/Cmd+Enter for itself: the code editor hands it to Try it. */
export function bindRunKey(mounted: editor.IStandaloneCodeEditor, monaco: Monaco) {
  mounted.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => window.dispatchEvent(new Event(TRY_RUN_EVENT)));
}
