"use client";
// Monaco from node_modules, never a CDN: imported only in the browser, on the editor page, then handed
// to @monaco-editor/react. Python needs only the editor worker (R-ops-monaco).
import { loader } from "@monaco-editor/react";

export type Monaco = typeof import("monaco-editor");

let ready: Promise<Monaco> | null = null;

export function setupMonaco(): Promise<Monaco> {
  ready ??= (async () => {
    const monaco = await import("monaco-editor");
    (self as unknown as { MonacoEnvironment: unknown }).MonacoEnvironment = {
      getWorker: () => new Worker(new URL("monaco-editor/editor/editor.worker", import.meta.url), { type: "module" }),
    };
    // A file with no line break yet (a new project file) would otherwise take the browser's platform line ending
    // (CRLF where the user agent says Windows); one with text keeps the ending it has.
    monaco.editor.onDidCreateModel((model) => {
      if (model.getLineCount() === 1) model.setEOL(monaco.editor.EndOfLineSequence.LF);
    });
    loader.config({ monaco });
    return monaco;
  })();
  return ready;
}
