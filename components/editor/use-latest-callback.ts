"use client";
// A callback whose identity never changes but which always runs the newest render's function: a memoised child given
// it does not re-render because its parent did (R-preview-editor-still).
import { useCallback, useLayoutEffect, useRef } from "react";

export function useLatestCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const ref = useRef(fn);
  useLayoutEffect(() => {
    ref.current = fn;
  });
  return useCallback((...args: A) => ref.current(...args), []);
}
