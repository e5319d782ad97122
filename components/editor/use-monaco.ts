"use client";
// Loads Monaco once for the page and says when it is there, with the theme its editors take (R-theme-monaco).
import { useEffect, useState } from "react";
import { useMonacoTheme } from "@/components/theme/use-page-theme";
import { setupMonaco, type Monaco } from "./monaco-setup";

export function useMonaco(): { monaco: Monaco | null; error: Error | null; theme: "vs" | "vs-dark" } {
  const theme = useMonacoTheme();
  const [monaco, setMonaco] = useState<Monaco | null>(null);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    let live = true;
    setupMonaco().then(
      (loaded) => live && setMonaco(loaded),
      (err: Error) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, []);
  return { monaco, error, theme };
}
