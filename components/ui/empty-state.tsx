// What a page or pane shows before it has anything: what goes here, and the one action that starts it.
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

export function EmptyState({
  icon: Icon,
  title,
  children,
  actions,
  className = "my-4 max-w-xl",
}: {
  icon: LucideIcon;
  title: ReactNode;
  /** A sentence or two on what belongs here. */
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <div className={`rounded-lg border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700 ${className}`}>
      <Icon aria-hidden className="mx-auto mb-3 h-6 w-6 text-zinc-400" />
      <p className="font-medium">{title}</p>
      <p className={`mt-1 text-sm text-zinc-600 dark:text-zinc-400 ${actions ? "mb-4" : ""}`}>{children}</p>
      {actions ? <div className="flex justify-center gap-2">{actions}</div> : null}
    </div>
  );
}
