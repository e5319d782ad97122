"use client";
// System / Light / Dark in the account menu: applied to the page at once, then kept for the person so every
// browser they sign in from opens in it (R-theme-per-user). Three radios, so arrows move between them.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import type { Theme } from "@/server/auth/preferences";

// Words only: the rail is narrow, and three icons beside three words crowd it.
const options: { theme: Theme; label: string }[] = [
  { theme: "system", label: "System" },
  { theme: "light", label: "Light" },
  { theme: "dark", label: "Dark" },
];

function paint(theme: Theme) {
  document.documentElement.dataset.theme = theme;
}

export function ThemeChoice({ initial }: { initial: Theme }) {
  const trpc = useTRPC();
  const [chosen, setChosen] = useState<Theme>(initial);
  const save = useMutation(trpc.account.setTheme.mutationOptions());

  function choose(next: Theme) {
    const before = chosen;
    setChosen(next);
    paint(next);
    save.mutate(
      { theme: next },
      {
        onError: () => {
          setChosen(before);
          paint(before);
        },
      },
    );
  }

  return (
    <fieldset className="mt-3">
      <legend className="mb-1 text-zinc-500 dark:text-zinc-400">Theme</legend>
      <div className="grid grid-cols-3 gap-0.5 rounded-md border border-zinc-200 bg-zinc-100 p-0.5 dark:border-zinc-700 dark:bg-zinc-950">
        {/* Each radio lies invisible over its own label, so a click anywhere on the label lands on the radio itself. */}
        {options.map(({ theme, label }) => (
          <label key={theme} className="relative">
            <input
              type="radio"
              name="theme"
              value={theme}
              checked={chosen === theme}
              onChange={() => choose(theme)}
              className="peer absolute inset-0 h-full w-full cursor-pointer appearance-none opacity-0"
            />
            <span className="block rounded px-1 py-1 text-center text-zinc-600 peer-checked:bg-white peer-checked:font-medium peer-checked:text-zinc-900 peer-checked:shadow-sm peer-focus-visible:outline-2 peer-focus-visible:outline-accent dark:peer-focus-visible:outline-indigo-400 peer-hover:text-zinc-900 dark:text-zinc-400 dark:peer-checked:bg-zinc-700 dark:peer-checked:text-zinc-50 dark:peer-hover:text-zinc-100">
              {label}
            </span>
          </label>
        ))}
      </div>
      <ErrorText error={save.error} className="mt-1 text-red-600 dark:text-red-400" />
    </fieldset>
  );
}
