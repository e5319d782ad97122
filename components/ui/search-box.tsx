// A search field with its magnifier: labelled for screen readers and tests, the label hidden from sight.
import { Search } from "lucide-react";
import type { InputHTMLAttributes } from "react";

export function SearchBox({
  label,
  onSearch,
  className = "w-72",
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "onChange" | "className"> & {
  label: string;
  onSearch: (query: string) => void;
  className?: string;
}) {
  return (
    <label className={`relative block ${className}`}>
      <span className="sr-only">{label}</span>
      <Search aria-hidden className="pointer-events-none absolute left-2.5 top-2.5 h-4 w-4 text-zinc-400" />
      <input
        type="search"
        onChange={(event) => onSearch(event.target.value)}
        className="w-full rounded-md border border-zinc-300 bg-transparent py-1.5 pl-8 pr-3 text-sm outline-none focus:border-accent dark:border-zinc-700"
        {...input}
      />
    </label>
  );
}
