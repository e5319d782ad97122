"use client";
// Rows of NAME = value (a stdio server's environment, an HTTP server's headers): one labelled pair of inputs per
// row, a spare row always last (typing in it makes the next), each row's problem under it. Values may name a
// secret as ${NAME}; the secrets' names are offered as suggestions, never their values.
import { X } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { Pair } from "./server-form";

const input =
  "min-w-0 rounded-md border border-zinc-300 bg-transparent px-2 py-1 font-mono text-xs outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700";

export function PairsEditor({
  id,
  legend,
  keyLabel,
  keyPlaceholder,
  valuePlaceholder,
  pairs,
  onChange,
  problems,
  listProblems,
  suggestions,
}: {
  id: string;
  legend: string;
  /** What one key is called, for each input's label ("Variable", "Header"). */
  keyLabel: string;
  keyPlaceholder: string;
  valuePlaceholder: string;
  pairs: Pair[];
  onChange: (pairs: Pair[]) => void;
  /** Sentences by a row's (trimmed) key. */
  problems: Map<string, string[]>;
  /** Sentences about the whole list. */
  listProblems: string[];
  /** The id of a datalist of values to suggest (the secrets as ${NAME}). */
  suggestions?: string;
}) {
  const rows = pairs.length > 0 && pairs.at(-1)!.key === "" && pairs.at(-1)!.value === "" ? pairs : [...pairs, { key: "", value: "" }];
  const set = (index: number, next: Pair) => onChange(rows.map((pair, i) => (i === index ? next : pair)));
  const remove = (index: number) => onChange(rows.filter((_, i) => i !== index));

  return (
    <fieldset className="flex flex-col gap-1 text-sm" aria-describedby={`${id}-note`}>
      <legend className="mb-1 font-medium">{legend}</legend>
      {rows.map((pair, index) => {
        const said = pair.key.trim() ? (problems.get(pair.key.trim()) ?? []) : [];
        const rowId = `${id}-${index}`;
        const spare = index === rows.length - 1 && pair.key === "" && pair.value === "";
        return (
          <div key={index} className="flex flex-col gap-0.5">
            <div className="flex items-center gap-1.5">
              <label htmlFor={`${rowId}-key`} className="sr-only">
                {keyLabel} {index + 1}
              </label>
              <input
                id={`${rowId}-key`}
                value={pair.key}
                spellCheck={false}
                autoComplete="off"
                placeholder={keyPlaceholder}
                aria-invalid={said.length > 0}
                onChange={(e) => set(index, { ...pair, key: e.target.value })}
                className={`w-40 ${input}`}
              />
              <span aria-hidden className="text-zinc-400">
                =
              </span>
              <label htmlFor={`${rowId}-value`} className="sr-only">
                Value of {pair.key.trim() || `${keyLabel.toLowerCase()} ${index + 1}`}
              </label>
              <input
                id={`${rowId}-value`}
                value={pair.value}
                spellCheck={false}
                autoComplete="off"
                list={suggestions}
                placeholder={valuePlaceholder}
                aria-invalid={said.length > 0}
                onChange={(e) => set(index, { ...pair, value: e.target.value })}
                className={`flex-1 ${input}`}
              />
              <Button
                type="button"
                size="sm"
                variant="ghost"
                disabled={spare}
                aria-label={`Remove ${pair.key.trim() || `${keyLabel.toLowerCase()} ${index + 1}`}`}
                onClick={() => remove(index)}
              >
                <X aria-hidden className="h-3.5 w-3.5" />
              </Button>
            </div>
            {said.map((sentence) => (
              <span key={sentence} className="text-xs text-red-600">
                {sentence}
              </span>
            ))}
          </div>
        );
      })}
      <span id={`${id}-note`} className={`text-xs ${listProblems.length > 0 ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}`}>
        {listProblems.length > 0 ? listProblems.join(" ") : "A value may name a secret as ${NAME}; it is filled in only when the server starts."}
      </span>
    </fieldset>
  );
}
