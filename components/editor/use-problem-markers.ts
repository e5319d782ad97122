"use client";
// The Problems strip's entries as markers in the code, at their lines, for the file shown.
import { useEffect, useState } from "react";
import { modelOf } from "./models";
import type { Monaco } from "./monaco-setup";
import type { Problem } from "./preview-state";
import { ShownProblems } from "./shown-problems";

export function useProblemMarkers(monaco: Monaco | null, path: string, problems: readonly Problem[] | undefined) {
  const [shown] = useState(() => new ShownProblems());
  useEffect(() => {
    const model = modelOf(monaco, path);
    // The same problems as the model shows already: nothing for Monaco to redraw (R-preview-markers-same).
    if (!monaco || !model || !problems || !shown.changed(model, problems)) return;
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
  }, [monaco, problems, path, shown]);
}
