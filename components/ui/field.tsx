// A labelled input with its problem under it: every control has a label a screen reader and a test can find.
import type { InputHTMLAttributes } from "react";

export function Field({
  label,
  error,
  hint,
  id,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | null; hint?: string; id: string }) {
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={!!error}
        aria-describedby={`${id}-note`}
        className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700"
        {...input}
      />
      <span id={`${id}-note`} className={`text-xs ${error ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}`}>
        {error ?? hint ?? ""}
      </span>
    </div>
  );
}
