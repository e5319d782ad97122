"use client";
// Try it: pick an operation, fill the form generated from its schema and the file's settings, Run.
// The saved file's operation runs through the same host the runtime uses; the panel shows the result
// exactly as the model gets it, its duration, and progress lines while it runs.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Play, Save, Trash2 } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { SecretPicker } from "@/components/secrets/secret-picker";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { useStreamedTry } from "@/components/trpc/streamed-try";
import { Button } from "@/components/ui/button";
import type { CallResult, CatalogFile } from "@/server/host/protocol";
import { SchemaFields } from "./schema-fields";
import { fieldsOf, initialValues, schemaErrors, toArgs, type FormValues } from "./schema-form";

/** Sent by the code editor when Ctrl/Cmd+Enter is pressed inside it. */
export const TRY_RUN_EVENT = "quiver:try-run";


const outcomeLabel: Record<CallResult["outcome"], string> = {
  ok: "Succeeded",
  refused: "Refused",
  failed: "Failed",
  transient: "Failed (worth retrying)",
  timeout: "Timed out",
};

export function TryItPanel({ path, entry, unsaved }: { path: string; entry: CatalogFile | null; unsaved: boolean }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const tools = useMemo(() => entry?.tools ?? [], [entry]);
  const [chosen, setChosen] = useState<string>("");
  const tool = tools.find((t) => t.name === chosen) ?? tools[0];
  const fields = useMemo(() => (tool ? fieldsOf(tool.input_schema) : []), [tool]);
  const settingsSchema = entry?.settings_schema ?? null;
  const settingFields = useMemo(
    () =>
      settingsSchema
        ? fieldsOf(settingsSchema).filter(
            (f) => (settingsSchema.properties as Record<string, { "x-quiver-kind"?: string }>)[f.name]?.["x-quiver-kind"] !== "secret",
          )
        : [],
    [settingsSchema],
  );
  // Secret settings are picked by name (sent as ${NAME}, resolved by the studio), never typed.
  const secretFields = useMemo(() => {
    const required = new Set((settingsSchema?.required as string[] | undefined) ?? []);
    return Object.entries((settingsSchema?.properties ?? {}) as Record<string, { "x-quiver-kind"?: string; "x-quiver-credential-help"?: string }>)
      .filter(([, field]) => field["x-quiver-kind"] === "secret")
      .map(([name, field]) => ({ name, help: field["x-quiver-credential-help"] ?? null, required: required.has(name) }));
  }, [settingsSchema]);
  const [secretPicks, setSecretPicks] = useState<Record<string, string>>({});
  const pickedSecrets = () => Object.fromEntries(Object.entries(secretPicks).filter(([name, value]) => value && secretFields.some((f) => f.name === name)));
  const [values, setValues] = useState<FormValues>({});
  const [settings, setSettings] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { run, start: follow } = useStreamedTry();
  const [exampleTitle, setExampleTitle] = useState("");
  const examples = useQuery(trpc.tools.try.examples.queryOptions({ path }));
  const saveExample = useMutation(
    trpc.tools.try.saveExample.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.tools.try.examples.queryKey({ path }) }),
    }),
  );
  const deleteExample = useMutation(
    trpc.tools.try.deleteExample.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.tools.try.examples.queryKey({ path }) }),
    }),
  );

  // A new operation (or a changed schema) starts from its defaults.
  const formKey = `${tool?.name}:${JSON.stringify(tool?.input_schema)}`;
  const [shownKey, setShownKey] = useState<string | null>(null);
  if (tool && shownKey !== formKey) {
    setShownKey(formKey);
    setValues(initialValues(fields));
    setErrors({});
  }
  const settingsKey = JSON.stringify(settingsSchema);
  const [shownSettingsKey, setShownSettingsKey] = useState<string | null>(null);
  if (shownSettingsKey !== settingsKey) {
    setShownSettingsKey(settingsKey);
    setSettings(initialValues(settingFields));
    setSecretPicks({});
  }

  // The call is a POST whose answer streams its events (R-req-acting-post); a new call or leaving the page aborts it.
  function start(name: string, args: Record<string, unknown>, settingValues: Record<string, unknown>) {
    return follow((signal) => client.tools.try.run.mutate({ name, args, settings: settingValues }, { signal }));
  }

  function submit() {
    if (!tool) return;
    const parsed = toArgs(fields, values);
    const parsedSettings = toArgs(settingFields, settings);
    // The form's own sentences win over the schema validator's for the same field.
    const problems = { ...schemaErrors(tool.input_schema, parsed.args), ...parsed.errors };
    const settingProblems = Object.fromEntries(Object.entries(parsedSettings.errors).map(([k, v]) => [`settings.${k}`, v]));
    for (const field of secretFields) {
      if (field.required && !secretPicks[field.name]) settingProblems[`settings.${field.name}`] = `Pick a secret for ${field.name}.`;
    }
    setErrors({ ...problems, ...settingProblems });
    if (Object.keys(problems).length > 0 || Object.keys(settingProblems).length > 0) return;
    void start(tool.name, parsed.args, { ...parsedSettings.args, ...pickedSecrets() });
  }

  // Ctrl/Cmd+Enter runs, wherever the focus is on the page.
  const submitRef = useRef(submit);
  useEffect(() => {
    submitRef.current = submit;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
        event.preventDefault();
        submitRef.current();
      }
    };
    const onRequest = () => submitRef.current();
    window.addEventListener("keydown", onKey);
    window.addEventListener(TRY_RUN_EVENT, onRequest);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener(TRY_RUN_EVENT, onRequest);
    };
  }, []);

  if (!entry) return <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Reading the file…</p>;
  if (tools.length === 0) return <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">This file offers no operations to try yet.</p>;

  const text = run?.result?.content.map((part) => (part.type === "text" ? part.text : `[image: ${part.mimeType}]`)).join("\n");

  return (
    <div className="flex flex-col gap-3 p-3 text-sm">
      {unsaved ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-200">
          Try it runs the saved file. Save (Ctrl+S) to try your latest edits.
        </p>
      ) : null}
      {!entry.offered && entry.unavailable ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-200">
          Not offered to a model: {entry.unavailable}. Try it still calls it by name.
        </p>
      ) : !entry.offered ? (
        <p className="rounded-md bg-red-50 px-3 py-2 text-xs text-red-800 dark:bg-red-950 dark:text-red-200">
          This file has problems, so the host offers none of its operations: fix them and save first.
        </p>
      ) : null}
      <label className="flex flex-col gap-1 text-xs">
        <span className="font-medium">Operation</span>
        <select
          value={tool?.name ?? ""}
          onChange={(e) => setChosen(e.target.value)}
          className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 font-mono text-xs dark:border-zinc-700"
        >
          {tools.map((t) => (
            <option key={t.name} value={t.name}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        className="flex flex-col gap-3"
      >
        {fields.length > 0 ? (
          <SchemaFields idPrefix="arg" fields={fields} values={values} errors={errors} onChange={(n, v) => setValues((p) => ({ ...p, [n]: v }))} />
        ) : (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">This operation takes no parameters.</p>
        )}
        {settingFields.length > 0 || secretFields.length > 0 ? (
          <fieldset className="rounded-md border border-dashed border-zinc-300 p-2 dark:border-zinc-700">
            <legend className="px-1 text-xs font-medium">Settings (never shown to the model)</legend>
            <SchemaFields
              idPrefix="setting"
              fields={settingFields}
              values={settings}
              errors={Object.fromEntries(Object.entries(errors).filter(([k]) => k.startsWith("settings.")).map(([k, v]) => [k.slice(9), v]))}
              onChange={(n, v) => setSettings((p) => ({ ...p, [n]: v }))}
            />
            {secretFields.map((field) => (
              <div key={field.name} className="mt-2.5">
                <SecretPicker
                  id={`setting-${field.name}`}
                  field={field.name}
                  value={secretPicks[field.name] ?? ""}
                  onChange={(value) => setSecretPicks((p) => ({ ...p, [field.name]: value }))}
                  path={path}
                  help={field.help}
                  required={field.required}
                  error={errors[`settings.${field.name}`]}
                />
              </div>
            ))}
          </fieldset>
        ) : null}
        <div className="flex items-center gap-2">
          <Button type="submit" variant="primary" size="sm" disabled={run?.running}>
            <Play aria-hidden className="h-3.5 w-3.5" /> {run?.running ? "Running…" : "Run"}
          </Button>
          <span className="text-xs text-zinc-500 dark:text-zinc-400">Ctrl+Enter</span>
        </div>
      </form>
      {run ? (
        <section aria-label="Result" className="rounded-md border border-zinc-200 dark:border-zinc-800">
          <header className="flex items-center gap-2 border-b border-zinc-200 px-3 py-1.5 text-xs dark:border-zinc-800">
            <span
              role="status"
              className={
                run.error || (run.result && run.result.outcome !== "ok")
                  ? run.result?.outcome === "refused"
                    ? "text-zinc-600"
                    : "text-red-600"
                  : "text-emerald-700"
              }
            >
              {run.running ? "Running…" : run.error ? "Could not run" : run.result ? outcomeLabel[run.result.outcome] : ""}
            </span>
            {run.durationMs !== null ? <span className="text-zinc-500 dark:text-zinc-400">{run.durationMs} ms</span> : null}
          </header>
          {run.progress.length > 0 ? (
            <ul aria-label="Progress" className="border-b border-zinc-200 px-3 py-1 text-xs text-zinc-500 dark:text-zinc-400 dark:border-zinc-800">
              {run.progress.map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ul>
          ) : null}
          {run.error ? <p className="px-3 py-2 text-xs text-red-600">{errorSentence(run.error)}</p> : null}
          {text !== undefined ? (
            <pre data-testid="try-result" className="max-h-80 overflow-auto whitespace-pre-wrap px-3 py-2 font-mono text-xs">
              {text}
            </pre>
          ) : null}
          {run.result && tool ? (
            <form
              className="flex items-center gap-2 border-t border-zinc-200 px-3 py-1.5 dark:border-zinc-800"
              onSubmit={(event) => {
                event.preventDefault();
                const parsed = toArgs(fields, values);
                saveExample.mutate({
                  path,
                  tool: tool.name,
                  title: exampleTitle.trim() || `${tool.name} example`,
                  args: parsed.args,
                  settings: { ...toArgs(settingFields, settings).args, ...pickedSecrets() },
                });
                setExampleTitle("");
              }}
            >
              <input
                aria-label="Example name"
                value={exampleTitle}
                onChange={(e) => setExampleTitle(e.target.value)}
                placeholder="Name this call"
                className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-transparent px-2 py-0.5 text-xs dark:border-zinc-700"
              />
              <Button type="submit" size="sm" variant="secondary" disabled={saveExample.isPending}>
                <Save aria-hidden className="h-3 w-3" /> Save as example
              </Button>
            </form>
          ) : null}
        </section>
      ) : null}
      <section aria-label="Examples">
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Examples</h3>
        {(examples.data ?? []).length === 0 ? (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">No saved calls yet: run one, then save it as an example to re-run it with one click.</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {examples.data!.map((example) => (
              <li key={example.id} className="flex items-center gap-2 text-xs">
                <span className="min-w-0 flex-1 truncate">
                  {example.title} <span className="font-mono text-zinc-500 dark:text-zinc-400">{example.tool}</span>
                </span>
                <Button size="sm" variant="ghost" aria-label={`Run ${example.title} again`} onClick={() => void start(example.tool, example.args, example.settings)}>
                  <Play aria-hidden className="h-3 w-3" />
                </Button>
                <Button size="sm" variant="ghost" aria-label={`Delete ${example.title}`} onClick={() => deleteExample.mutate({ path, id: example.id })}>
                  <Trash2 aria-hidden className="h-3 w-3" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
