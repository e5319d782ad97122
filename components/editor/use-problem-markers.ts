"use client";
// The Problems strip's entries as markers in the code, at their lines, for the file shown.
import { useEffect } from "react";
import { modelOf } from "./models";
import type { Monaco } from "./monaco-setup";
import type { Problem } from "./preview-state";

export function useProblemMarkers(monaco: Monaco | null, path: string, problems: readonly Problem[] | undefined) {
  useEffect(() => {
    const model = modelOf(monaco, path);
    if (!monaco || !model || !problems) return;
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
  }, [monaco, problems, path]);
}
