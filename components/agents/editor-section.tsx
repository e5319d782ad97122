// One numbered section of the agent page's column: a heading a screen reader can jump to, a line on what it is for.
import type { ReactNode } from "react";

export function EditorSection({
  id,
  title,
  lede,
  action,
  children,
}: {
  id: string;
  title: string;
  lede?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className="border-b border-zinc-200 py-6 last:border-b-0 dark:border-zinc-800">
      <div className="mb-3 flex items-start justify-between gap-4">
        <div>
          <h2 id={`${id}-heading`} className="text-sm font-semibold">
            {title}
          </h2>
          {lede ? <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">{lede}</p> : null}
        </div>
        {action ? <div className="shrink-0">{action}</div> : null}
      </div>
      {children}
    </section>
  );
}
