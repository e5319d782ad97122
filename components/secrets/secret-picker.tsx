"use client";
// A Secret setting as a builder fills it: a secret picked by name (the setting's value becomes ${NAME}), the
// file's CREDENTIAL_HELP beside it, and check_secret's sentence once one is picked. Never a field for a value.
import { useQuery } from "@tanstack/react-query";
import { CircleAlert, CircleCheck, KeyRound } from "lucide-react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { SECRET_REFERENCE } from "@/server/secrets/names";

/** The secret name a setting's value refers to, or "" when it holds no single ${NAME}. */
export function pickedName(value: unknown): string {
  return typeof value === "string" ? (SECRET_REFERENCE.exec(value)?.[1] ?? "") : "";
}

export function SecretPicker({
  id,
  field,
  value,
  onChange,
  path,
  help,
  required = false,
  error,
}: {
  id: string;
  /** The setting's name: the select's label. */
  field: string;
  /** "${NAME}", or "" for none. */
  value: string;
  onChange: (value: string) => void;
  /** The saved file whose check_secret judges the pick; without it no check runs. */
  path?: string;
  /** The file's CREDENTIAL_HELP. */
  help?: string | null;
  required?: boolean;
  error?: string | null;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const names = useQuery(trpc.secrets.names.queryOptions());
  const name = pickedName(value);
  // A mutation on the server (it runs the file's code on the secret and audits it, which no GET may do), read here
  // like a query: once per pick, kept for the same pick.
  const check = useQuery({
    queryKey: ["secrets.checkBinding", { path, field, name }],
    queryFn: () => client.secrets.checkBinding.mutate({ path: path ?? "", field, name }),
    enabled: !!path && !!name,
    retry: false,
  });
  const known = names.data ?? [];
  // A reference to a secret not in the list (deleted, or typed into an example) still shows as picked.
  const options = name && !known.some((s) => s.name === name) ? [...known, { name, description: "not found" }] : known;
  const noteId = `${id}-note`;

  return (
    <div className="flex flex-col gap-1 text-xs">
      <label htmlFor={id} className="flex items-center gap-1.5 font-mono font-medium">
        <KeyRound aria-hidden className="h-3.5 w-3.5 text-zinc-500 dark:text-zinc-400" />
        {field}
        {required ? <span className="text-red-600" aria-hidden> *</span> : null}
      </label>
      <select
        id={id}
        value={name}
        onChange={(e) => onChange(e.target.value ? `\${${e.target.value}}` : "")}
        aria-invalid={!!error}
        aria-describedby={noteId}
        className="w-full rounded-md border border-zinc-300 bg-transparent px-2 py-1 font-mono text-xs outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700"
      >
        <option value="">{required ? "Pick a secret…" : "(no secret)"}</option>
        {options.map((secret) => (
          <option key={secret.name} value={secret.name}>
            {secret.description ? `${secret.name} — ${secret.description}` : secret.name}
          </option>
        ))}
      </select>
      <div id={noteId} className="flex flex-col gap-0.5">
        {error ? <span className="text-red-600">{error}</span> : null}
        {help ? <span className="text-zinc-500 dark:text-zinc-400">{help}</span> : null}
        {names.error ? (
          <span role="alert" className="text-red-600">{errorSentence(names.error)}</span>
        ) : names.data && known.length === 0 ? (
          <span className="text-zinc-500 dark:text-zinc-400">No secrets yet: an admin can create one in Settings → Secrets.</span>
        ) : null}
        {name && path ? (
          check.isFetching ? (
            <span className="text-zinc-500 dark:text-zinc-400">Checking {name}…</span>
          ) : check.error ? (
            <span role="alert" className="flex items-start gap-1 text-red-600">
              <CircleAlert aria-hidden className="mt-px h-3.5 w-3.5 shrink-0" /> {errorSentence(check.error)}
            </span>
          ) : check.data?.ok ? (
            <span role="status" className="flex items-center gap-1 text-emerald-700 dark:text-emerald-400">
              <CircleCheck aria-hidden className="h-3.5 w-3.5" /> {name} is accepted for {field}.
            </span>
          ) : check.data ? (
            <span role="alert" className="flex items-start gap-1 text-red-600">
              <CircleAlert aria-hidden className="mt-px h-3.5 w-3.5 shrink-0" /> {check.data.message ?? `${name} is not usable for ${field}.`}
            </span>
          ) : null
        ) : null}
      </div>
    </div>
  );
}
