// A labelled multi-line input with its problem under it, as Field is for one line.
import type { ReactNode } from "react";

export function TextArea({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  rows = 3,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: ReactNode;
  rows?: number;
  placeholder?: string;
}) {
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        spellCheck={false}
        placeholder={placeholder}
        aria-invalid={!!error}
        aria-describedby={`${id}-note`}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          // Enter makes a new line here, so Ctrl/Cmd+Enter submits the form as Enter does in a one-line field.
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
        className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 font-mono text-xs outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700"
      />
      <span id={`${id}-note`} className={`whitespace-pre-line text-xs ${error ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}`}>
        {error ?? hint ?? ""}
      </span>
    </div>
  );
}
