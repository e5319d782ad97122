"use client";
// Models on offer: every model the provider lists, or only those ticked here — from what Test listed, or typed by
// their ids when the list cannot be read.
import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { withModels, type ConnectionForm } from "./connection-form";

export function OfferField({
  form,
  listed,
  error,
  onChange,
}: {
  form: Pick<ConnectionForm, "offer" | "models">;
  /** The ids the last Test read from the provider. */
  listed: readonly string[];
  error: string | null;
  onChange: (patch: Partial<ConnectionForm>) => void;
}) {
  const [typed, setTyped] = useState("");
  const choices = [...new Set([...listed, ...form.models])];
  const add = () => {
    if (!typed.trim()) return;
    onChange({ models: withModels(form.models, typed) });
    setTyped("");
  };

  return (
    <fieldset aria-describedby="conn-offer-note" className="flex flex-col gap-1.5 text-sm">
      <legend className="mb-1 font-medium">Models on offer</legend>
      <div className="flex gap-4">
        <label className="flex items-center gap-1.5">
          <input type="radio" name="conn-offer" checked={form.offer === "all"} onChange={() => onChange({ offer: "all" })} />
          All the provider lists
        </label>
        <label className="flex items-center gap-1.5">
          <input type="radio" name="conn-offer" checked={form.offer === "only"} onChange={() => onChange({ offer: "only" })} />
          Only these
        </label>
      </div>
      {form.offer === "only" ? (
        <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
          {choices.length > 0 ? (
            <ul className="grid max-h-40 grid-cols-2 gap-1 overflow-auto">
              {choices.map((id) => (
                <li key={id}>
                  <label className="flex items-center gap-1.5 font-mono text-xs">
                    <input
                      type="checkbox"
                      checked={form.models.includes(id)}
                      onChange={(e) => onChange({ models: e.target.checked ? [...form.models, id] : form.models.filter((m) => m !== id) })}
                    />
                    {id}
                  </label>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-zinc-500 dark:text-zinc-400">Press Test to list the provider&apos;s models here, or add them by id.</p>
          )}
          <div className="flex items-end gap-2">
            <div className="flex flex-1 flex-col gap-1">
              <label htmlFor="conn-add-model" className="text-xs font-medium">
                Add a model by its id
              </label>
              <input
                id="conn-add-model"
                value={typed}
                spellCheck={false}
                placeholder="qwen3"
                onChange={(e) => setTyped(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    add();
                  }
                }}
                className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 font-mono text-xs outline-none focus:border-accent dark:border-zinc-700"
              />
            </div>
            <Button type="button" size="sm" onClick={add} disabled={!typed.trim()}>
              <Plus aria-hidden className="h-3.5 w-3.5" /> Add
            </Button>
          </div>
        </div>
      ) : null}
      <span id="conn-offer-note" className={`text-xs ${error ? "text-red-600 dark:text-red-400" : "text-zinc-500 dark:text-zinc-400"}`}>
        {error ?? (form.offer === "all" ? "Builders pick from whatever the provider lists when they choose." : `${form.models.length} model${form.models.length === 1 ? "" : "s"} on offer.`)}
      </span>
    </fieldset>
  );
}
