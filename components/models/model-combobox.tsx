"use client";
// A text box for a model id with the ids on offer listed under it, narrowing as one types (the ARIA combobox
// pattern): Down opens and moves, Up moves back, Enter picks, Escape closes. Any id may be typed; the list helps.
import { useState, type KeyboardEvent } from "react";

const SHOWN = 100;

export type ComboboxControl = { id: string; "aria-invalid"?: boolean; "aria-describedby"?: string };

export function ModelCombobox({
  control,
  value,
  onChange,
  options,
  placeholder,
  onFocus,
  className = "",
}: {
  /** The id the label points at, and what ties the problems under the field to it. */
  control: ComboboxControl;
  value: string;
  onChange: (value: string) => void;
  options: readonly string[];
  placeholder?: string;
  /** The box got the focus: the moment to read the ids, when reading them costs something. */
  onFocus?: () => void;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  // What was typed since the list opened; null shows every id (opened with the arrow or a click).
  const [filter, setFilter] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const listId = `${control.id}-list`;
  const needle = filter?.trim().toLowerCase() ?? "";
  const shown = (needle ? options.filter((o) => o.toLowerCase().includes(needle)) : options).slice(0, SHOWN);
  const expanded = open && shown.length > 0;
  const optionId = (index: number) => `${control.id}-option-${index}`;

  function show(all: boolean) {
    if (all) setFilter(null);
    setOpen(true);
  }

  function pick(id: string) {
    onChange(id);
    setOpen(false);
    setFilter(null);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      if (!open) show(true);
      setActive((i) => Math.min(i + 1, shown.length - 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === "Enter" && expanded && shown[active]) {
      event.preventDefault();
      pick(shown[active]);
    } else if (event.key === "Escape" && expanded) {
      event.preventDefault();
      setOpen(false);
    }
  }

  return (
    <div className={`relative ${className}`}>
      <input
        {...control}
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        value={value}
        placeholder={placeholder}
        onChange={(e) => {
          onChange(e.target.value);
          setFilter(e.target.value);
          setActive(-1);
          setOpen(true);
        }}
        onClick={() => show(!open)}
        onFocus={onFocus}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="w-full rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 font-mono text-sm outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Models on offer"
        hidden={!expanded}
        className="absolute z-30 mt-1 max-h-60 w-full overflow-auto rounded-md border border-zinc-200 bg-white py-1 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
      >
        {shown.map((id, index) => (
          <li
            key={id}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            // Keeps the focus in the box, so the blur does not close the list before the click lands.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(id)}
            className={`cursor-pointer px-2 py-1 font-mono ${
              index === active ? "bg-indigo-50 text-zinc-900 dark:bg-indigo-950 dark:text-zinc-50" : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
            } ${id === value ? "font-semibold" : ""}`}
          >
            {id}
          </li>
        ))}
      </ul>
    </div>
  );
}
