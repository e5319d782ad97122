"use client";
// Loads the editor (and with it Monaco) only on this page, only in the browser: no other page pays for it.
import dynamic from "next/dynamic";

export const ToolEditorLoader = dynamic(() => import("./tool-editor").then((m) => m.ToolEditor), {
  ssr: false,
  loading: () => <p className="m-8 text-sm text-zinc-500 dark:text-zinc-400">Loading the editor…</p>,
});
