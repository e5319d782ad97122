// The top of every page: its title, a line on what it is for, and its one primary action.
import type { ReactNode } from "react";

export function PageHeader({ title, lede, action }: { title: string; lede?: ReactNode; action?: ReactNode }) {
  return (
    <header className="flex items-start justify-between gap-6 border-b border-zinc-200 px-8 py-6 dark:border-zinc-800">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        {lede ? <p className="mt-1 max-w-2xl text-sm text-zinc-600 dark:text-zinc-400">{lede}</p> : null}
      </div>
      {action}
    </header>
  );
}
