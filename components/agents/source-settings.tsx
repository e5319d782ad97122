"use client";
// A source's Settings form, generated from its settings model: defaults filled, values checked as typed, help
// under each field; a secret is picked by name (with the file's help and check), a root is a folder of the
// workspace. The settings keep only what differs from a default, so a changed default still reaches the agent.
import { Folder } from "lucide-react";
import { useState } from "react";
import { SchemaFields } from "@/components/editor/schema-fields";
import { fieldsOf, initialValues, toArgs, type FormValues } from "@/components/editor/schema-form";
import { SecretPicker } from "@/components/secrets/secret-picker";
import type { Problem } from "@/server/agents/declaration";
import type { Source } from "@/server/catalog/sources";
import { fieldId, problemsAt, stableJson } from "./draft";
import { FieldProblems } from "./field-problems";
import { inputClass } from "./styles";

type Property = { type?: unknown; description?: string; default?: unknown; "x-quiver-kind"?: string; writeOnly?: boolean; "x-quiver-credential-help"?: string };

const kindOf = (p: Property) => (p["x-quiver-kind"] === "secret" || p.writeOnly === true ? "secret" : p["x-quiver-kind"] === "root" ? "root" : "plain");

/** The form's text for a stored value: what the builder typed, or the default. */
function shown(value: unknown, fallback: string | boolean): string | boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "boolean") return value;
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

export function SourceSettings({
  source,
  index,
  settings,
  problems,
  onChange,
}: {
  source: Source;
  index: number;
  settings: Record<string, unknown>;
  problems: readonly Problem[];
  onChange: (settings: Record<string, unknown>) => void;
}) {
  const schema = source.settings_schema ?? {};
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const plainSchema = { ...schema, properties: Object.fromEntries(Object.entries(properties).filter(([, p]) => kindOf(p) === "plain")) };
  const plain = fieldsOf(plainSchema);
  const [values, setValues] = useState<FormValues>(() => {
    const defaults = initialValues(plain);
    return Object.fromEntries(plain.map((f) => [f.name, shown(settings[f.name], defaults[f.name] ?? "")]));
  });
  const at = `tools[${index}].settings`;
  const local = toArgs(plain, values).errors;
  const errors = Object.fromEntries(
    plain.flatMap((f) => {
      const messages = [local[f.name], ...problemsAt(problems, `${at}.${f.name}`)].filter(Boolean);
      return messages.length > 0 ? [[f.name, messages[0]!]] : [];
    }),
  );
  // The tree file whose check_secret judges a picked secret; built-ins have none.
  const file = source.kind === "tree" ? source.entry.replace(/^tools\//, "") : undefined;

  function set(key: string, value: unknown) {
    const next = { ...settings };
    if (value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  }

  function changePlain(name: string, value: string | boolean) {
    const nextValues = { ...values, [name]: value };
    setValues(nextValues);
    const field = plain.find((f) => f.name === name)!;
    const { args, errors: wrong } = toArgs([field], nextValues);
    // A value that is not right yet is kept as typed, so the form keeps it and the server names the problem too.
    if (wrong[name]) return set(name, value);
    const given = args[name];
    set(name, given === undefined || stableJson(given) === stableJson(field.default) ? undefined : given);
  }

  const special = Object.entries(properties).filter(([, p]) => kindOf(p) !== "plain");
  return (
    <div className="flex flex-col gap-3">
      {problemsAt(problems, at).length > 0 ? <FieldProblems id={`${fieldId(at)}-note`} messages={problemsAt(problems, at)} /> : null}
      {special.map(([name, property]) => {
        const id = fieldId(`${at}.${name}`);
        const messages = problemsAt(problems, `${at}.${name}`);
        if (kindOf(property) === "secret") {
          return (
            <div key={name} className="flex flex-col gap-1 text-xs">
              <SecretPicker
                id={id}
                field={name}
                value={typeof settings[name] === "string" ? (settings[name] as string) : ""}
                onChange={(value) => set(name, value || undefined)}
                path={file}
                help={property["x-quiver-credential-help"]}
                required={required.has(name) && property.default === undefined}
                error={messages[0] ?? null}
              />
              {property.description ? <span className="text-zinc-500 dark:text-zinc-400">{property.description}</span> : null}
            </div>
          );
        }
        const fallback = typeof property.default === "string" ? property.default : "";
        return (
          <div key={name} className="flex flex-col gap-1 text-xs">
            <label htmlFor={id} className="flex items-center gap-1.5 font-mono font-medium">
              <Folder aria-hidden className="h-3.5 w-3.5 text-zinc-500 dark:text-zinc-400" />
              {name}
            </label>
            <input
              id={id}
              value={typeof settings[name] === "string" ? (settings[name] as string) : fallback}
              onChange={(e) => set(name, e.target.value === fallback ? undefined : e.target.value)}
              placeholder="inbox"
              aria-invalid={messages.length > 0}
              aria-describedby={`${id}-note`}
              className={`${inputClass} font-mono text-xs`}
            />
            <span id={`${id}-note`} className="flex flex-col gap-0.5">
              {messages.map((m, i) => (
                <span key={i} className="text-red-600">
                  {m}
                </span>
              ))}
              <span className="text-zinc-500 dark:text-zinc-400">
                {property.description ? `${property.description} ` : ""}A folder inside the studio&apos;s workspace, such as{" "}
                <code className="font-mono">inbox</code> (<code className="font-mono">.</code> is the whole workspace); paths outside it are
                refused.
              </span>
            </span>
          </div>
        );
      })}
      {plain.length > 0 ? <SchemaFields idPrefix={fieldId(at)} fields={plain} values={values} errors={errors} onChange={changePlain} /> : null}
    </div>
  );
}
