"use client";
// New connection and Edit: a name, the provider (a preset fills a local server's address), the address, the key as
// a secret picked by name, a default model and the models on offer. Test checks the form as it stands, before
// anything is saved, and what it lists fills the pickers. Each refusal shows at the field it names.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PlugZap } from "lucide-react";
import { useState, type FormEvent } from "react";
import { SecretPicker } from "@/components/secrets/secret-picker";
import { errorSentence, refusalOf } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { draftOf, emptyForm, formOf, inputOf, localProblems, type ConnectionForm } from "./connection-form";
import { OfferField } from "./offer-field";
import { ProviderSelect } from "./provider-select";
import { TestAnswerText } from "./test-answer";
import type { Connection } from "./types";

const FIELDS = ["name", "provider", "baseUrl", "apiKey", "defaultModel", "models"] as const;

function ConnectionFormBody({ row, onClose }: { row: Connection | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ConnectionForm>(() => (row ? formOf(row) : emptyForm()));
  const [shown, setShown] = useState<Array<{ field: string; message: string }>>([]);
  const create = useMutation(trpc.models.create.mutationOptions());
  const update = useMutation(trpc.models.update.mutationOptions());
  const test = useMutation(trpc.models.test.mutationOptions());
  const save = row ? update : create;
  const change = (patch: Partial<ConnectionForm>) => setForm((old) => ({ ...old, ...patch }));

  const refusal = refusalOf(save.error);
  // Input checks name their field by path; the studio's own refusals by details.field.
  const issues = refusal.issues.map((i) => ({ field: i.path.split(".")[0] ?? "", message: i.message }));
  const field = typeof refusal.details?.field === "string" ? refusal.details.field : null;
  if (save.error && field && issues.length === 0) issues.push({ field, message: errorSentence(save.error) });
  const all = [...shown, ...issues];
  const at = (field: string) => all.filter((p) => p.field === field).map((p) => p.message).join(" ") || null;
  const unplaced = all.filter((p) => !(FIELDS as readonly string[]).includes(p.field)).map((p) => p.message);
  const other = save.error && issues.length === 0 ? errorSentence(save.error) : null;
  const listed = test.data?.models ?? [];

  function submit(event: FormEvent) {
    event.preventDefault();
    save.reset();
    const local = localProblems(form);
    setShown(local);
    if (local.length > 0) return;
    const done = {
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.models.list.queryKey() });
        onClose();
      },
    };
    if (row) update.mutate(inputOf({ ...form, name: row.name }), done);
    else create.mutate(inputOf(form), done);
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-2" autoComplete="off" noValidate>
      <Field
        id="conn-name"
        label="Name"
        autoFocus={!row}
        required
        readOnly={!!row}
        spellCheck={false}
        value={form.name}
        onChange={(e) => change({ name: e.target.value })}
        placeholder="local-ollama"
        error={at("name")}
        hint={row ? "Agents name the connection by it, so it stays as it is." : "Builders pick the connection by this name: lower-case letters, digits and dashes."}
      />
      <ProviderSelect form={form} onChange={change} error={at("provider")} suggestName={!row} />
      <Field
        id="conn-base-url"
        label="Server address"
        inputMode="url"
        spellCheck={false}
        value={form.baseUrl}
        onChange={(e) => change({ baseUrl: e.target.value })}
        placeholder={form.provider === "openai-compatible" ? "http://127.0.0.1:11434/v1" : "Empty: the provider's own address"}
        error={at("baseUrl")}
        hint={form.provider === "openai-compatible" ? "Where the server answers OpenAI's API, usually ending in /v1." : "Leave empty unless you reach the provider through a gateway."}
      />
      <SecretPicker
        id="conn-key"
        field="Key"
        value={form.apiKey}
        onChange={(apiKey) => change({ apiKey })}
        required={form.provider !== "openai-compatible"}
        error={at("apiKey")}
        help={form.provider === "openai-compatible" ? "A local server usually needs no key." : "The secret that holds the provider's API key; its value never reaches this page."}
      />
      <Field
        id="conn-default-model"
        label="Default model"
        list="conn-listed-models"
        spellCheck={false}
        value={form.defaultModel}
        onChange={(e) => change({ defaultModel: e.target.value })}
        placeholder="qwen3"
        error={at("defaultModel")}
        hint="What an agent gets when it names no model; Test checks it answers."
      />
      <datalist id="conn-listed-models">
        {listed.map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      <OfferField form={form} listed={listed} error={at("models")} onChange={change} />
      <div className="flex flex-col gap-1 rounded-md border border-zinc-200 bg-zinc-50 p-2 dark:border-zinc-800 dark:bg-zinc-950">
        <div className="flex items-center gap-3">
          <Button type="button" size="sm" disabled={test.isPending} onClick={() => test.mutate({ draft: draftOf(form) })}>
            <PlugZap aria-hidden className="h-3.5 w-3.5" /> Test
          </Button>
          {!test.data && !test.isPending && !test.error ? (
            <span className="text-xs text-zinc-500 dark:text-zinc-400">Lists the provider&apos;s models and asks for a one-token answer, before anything is saved.</span>
          ) : null}
        </div>
        <TestAnswerText label="Test of this connection" pending={test.isPending} error={test.error} answer={test.data} steps />
      </div>
      {unplaced.length > 0 || other ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {[...unplaced, ...(other ? [other] : [])].join(" ")}
        </p>
      ) : all.length > 0 ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          Nothing was saved: fix what is marked above, then save again.
        </p>
      ) : null}
      <DialogActions onCancel={onClose} label="Save connection" busyLabel="Saving…" busy={save.isPending} className="mt-2" />
    </form>
  );
}

/** Open for a new connection when `row` is "new", for that row's Edit when a row; closed when null. */
export function ConnectionDialog({ row, onClose }: { row: Connection | "new" | null; onClose: () => void }) {
  const existing = row === "new" ? null : row;
  return (
    <Dialog
      open={row !== null}
      onOpenChange={(next) => (next ? undefined : onClose())}
      size="wide"
      title={existing ? `Edit ${existing.name}` : "New connection"}
      description="A model provider builders pick by name. A new key or address reaches every agent that uses it on its next run."
    >
      {row !== null ? <ConnectionFormBody key={existing?.name ?? "new"} row={existing} onClose={onClose} /> : null}
    </Dialog>
  );
}
