"use client";
// The file's settings as the form a builder will fill: never part of what the model sees. A Secret setting is
// the same live picker the builder gets (names only, check_secret's sentence), so its help can be tried here.
import { Folder } from "lucide-react";
import { useState } from "react";
import { SecretPicker } from "@/components/secrets/secret-picker";

type Field = {
  type?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  "x-quiver-kind"?: "secret" | "root";
  "x-quiver-credential-help"?: string;
};

export function SettingsPreview({ schema, path }: { schema: Record<string, unknown> | null; path?: string }) {
  const [picks, setPicks] = useState<Record<string, string>>({});
  const properties = Object.entries(((schema?.properties ?? {}) as Record<string, Field>) ?? {});
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  return (
    <section aria-label="Settings" className="m-3 rounded-md border border-dashed border-zinc-300 p-3 dark:border-zinc-700">
      <h3 className="text-sm font-semibold">Settings</h3>
      <p className="mb-3 text-xs text-zinc-500 dark:text-zinc-400">
        Filled once per agent by its builder. Never shown to the model.
      </p>
      {properties.length === 0 ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">This file has nothing to configure.</p>
      ) : (
        <div className="flex flex-col gap-3">
          {properties.map(([name, field]) =>
            field["x-quiver-kind"] === "secret" ? (
              <div key={name} className="flex flex-col gap-1 text-xs">
                <SecretPicker
                  id={`preview-setting-${name}`}
                  field={name}
                  value={picks[name] ?? ""}
                  onChange={(value) => setPicks((p) => ({ ...p, [name]: value }))}
                  path={path}
                  help={field["x-quiver-credential-help"]}
                  required={required.has(name)}
                />
                {field.description ? <span className="text-zinc-500 dark:text-zinc-400">{field.description}</span> : null}
              </div>
            ) : (
              <label key={name} className="flex flex-col gap-1 text-xs">
                <span className="font-medium">
                  {name}
                  {required.has(name) ? <span className="text-red-600"> *</span> : null}
                </span>
                {field["x-quiver-kind"] === "root" ? (
                  <span className="flex items-center gap-2 rounded-md border border-zinc-300 px-2 py-1.5 font-mono dark:border-zinc-700">
                    <Folder aria-hidden className="h-3.5 w-3.5 text-zinc-500 dark:text-zinc-400" /> {String(field.default ?? "")}
                  </span>
                ) : (
                  <input
                    readOnly
                    value={field.default === undefined ? "" : JSON.stringify(field.default)}
                    placeholder={field.type}
                    className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 font-mono dark:border-zinc-700"
                  />
                )}
                {field.description ? <span className="text-zinc-500 dark:text-zinc-400">{field.description}</span> : null}
              </label>
            ),
          )}
        </div>
      )}
    </section>
  );
}
