"use client";
// The inputs of a generated form: each labelled with its parameter's name, required marked,
// enums as selects, lists and objects as JSON, the field's problem right under it.
import type { FieldSpec, FormValues } from "./schema-form";

const inputClass =
  "w-full rounded-md border border-zinc-300 bg-transparent px-2 py-1 font-mono text-xs outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700";

export function SchemaFields({
  idPrefix,
  fields,
  values,
  errors,
  onChange,
}: {
  idPrefix: string;
  fields: FieldSpec[];
  values: FormValues;
  errors: Record<string, string>;
  onChange: (name: string, value: string | boolean) => void;
}) {
  return (
    <div className="flex flex-col gap-2.5">
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const error = errors[field.name];
        const value = values[field.name];
        const describedBy = `${id}-help`;
        return (
          <div key={field.name} className="flex flex-col gap-1 text-xs">
            {field.kind === "boolean" ? (
              <label htmlFor={id} className="flex items-center gap-2 font-mono font-medium">
                <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(field.name, e.target.checked)} />
                {field.name}
              </label>
            ) : (
              <>
                <label htmlFor={id} className="font-mono font-medium">
                  {field.name}
                  {field.required ? <span className="text-red-600" aria-hidden> *</span> : null}
                </label>
                {field.kind === "enum" ? (
                  <select
                    id={id}
                    value={typeof value === "string" ? value : ""}
                    onChange={(e) => onChange(field.name, e.target.value)}
                    aria-invalid={!!error}
                    aria-describedby={describedBy}
                    className={inputClass}
                  >
                    {!field.required ? <option value="">(not given)</option> : null}
                    {field.options.map((option) => (
                      <option key={JSON.stringify(option)} value={JSON.stringify(option)}>
                        {String(option)}
                      </option>
                    ))}
                  </select>
                ) : field.kind === "json" ? (
                  <textarea
                    id={id}
                    rows={2}
                    value={typeof value === "string" ? value : ""}
                    placeholder={field.shape === "object" ? '{"key": "value"}' : '["a", "b"]'}
                    onChange={(e) => onChange(field.name, e.target.value)}
                    aria-invalid={!!error}
                    aria-describedby={describedBy}
                    className={inputClass}
                  />
                ) : (
                  <input
                    id={id}
                    type={field.kind === "string" ? "text" : "number"}
                    step={field.kind === "integer" ? 1 : "any"}
                    value={typeof value === "string" ? value : ""}
                    onChange={(e) => onChange(field.name, e.target.value)}
                    aria-invalid={!!error}
                    aria-required={field.required}
                    aria-describedby={describedBy}
                    className={inputClass}
                  />
                )}
              </>
            )}
            <span id={describedBy} className={error ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}>
              {error ?? field.description ?? ""}
            </span>
          </div>
        );
      })}
    </div>
  );
}
