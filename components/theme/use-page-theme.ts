"use client";
// Which side the page is painted on right now, for what CSS cannot reach (Monaco's theme): <html data-theme>
// when it names one, the device's preference under "system", and it changes live with either (R-theme-monaco).
import { useSyncExternalStore } from "react";

export type PageTheme = "light" | "dark";

const DARK = "(prefers-color-scheme: dark)";

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(DARK);
  media.addEventListener("change", onChange);
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => {
    media.removeEventListener("change", onChange);
    observer.disconnect();
  };
}

function current(): PageTheme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === "light" || chosen === "dark") return chosen;
  return window.matchMedia(DARK).matches ? "dark" : "light";
}

export function usePageTheme(): PageTheme {
  return useSyncExternalStore(subscribe, current, () => "light");
}

/** Monaco's built-in theme for the page's side. */
export function useMonacoTheme(): "vs" | "vs-dark" {
  return usePageTheme() === "dark" ? "vs-dark" : "vs";
}
