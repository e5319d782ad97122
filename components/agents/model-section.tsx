"use client";
// Model: the connection an admin set up (picked by name) and a model from what it offers, plus the per-agent
// options. An agent that carries its own provider, address and key keeps them editable under Own settings.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState } from "react";
import { ModelCombobox } from "@/components/models/model-combobox";
import { AdoptDialog } from "@/components/models/adopt-dialog";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import type { Problem } from "@/server/agents/declaration";
import { hasRole } from "@/server/auth/roles";
import type { AppRouter } from "@/server/trpc/router";
import type { DraftModel } from "./draft";
import { DraftField } from "./draft-field";
import { EditorSection } from "./editor-section";
import { PROVIDER_LABELS } from "./labels";
import { ModelOptions } from "./model-options";
import { OwnModelSettings } from "./own-model-settings";
import { selectClass } from "./styles";

/** The select's value for the agent's own settings; never a connection's name (names have no underscore). */
const OWN = "__own";

export type Adoption = {
  agentId: string;
  agentName: string;
  /** Making a connection saves a new version: unsaved edits would be lost under it. */
  dirty: boolean;
  /** The agent as saved with the connection's reference, read again after it was made. */
  onAdopted: (agent: inferRouterOutputs<AppRouter>["agents"]["get"]) => void;
};

export function ModelSection({
  model,
  problems,
  onChange,
  adoption,
}: {
  model: DraftModel;
  problems: readonly Problem[];
  onChange: (patch: Partial<DraftModel>) => void;
  adoption?: Adoption;
}) {
  const trpc = useTRPC();
  const me = useQuery(trpc.account.me.queryOptions());
  const admin = !!me.data?.user && hasRole(me.data.user, "admin");
  const list = useQuery(trpc.models.list.queryOptions());
  // Offered only to agents that had their own settings when the page opened, or while they are picked.
  const [hasOwn, setHasOwn] = useState(model.connection === "");
  const queryClient = useQueryClient();
  const [adopting, setAdopting] = useState(false);
  const connections = list.data ?? [];
  const picked = connections.find((c) => c.name === model.connection);
  const client = useTRPCClient();
  // A mutation on the server (reading the list decrypts the connection's key and calls out, which no GET may do),
  // read here like a query once the picker is first focused, kept a minute as the server keeps it.
  const [wanted, setWanted] = useState(false);
  const offered = useQuery({
    queryKey: ["models.offered", { name: model.connection }],
    queryFn: () => client.models.offered.mutate({ name: model.connection }),
    enabled: wanted && !!picked && picked.models === null,
    staleTime: 60_000,
    retry: false,
  });
  const own = model.connection === "";
  const missing = model.connection && list.data && !picked ? model.connection : null;

  // A connection that names its models offers exactly those: no need to ask the provider.
  const ids = picked?.models ?? offered.data?.models ?? [];
  const unlisted = !picked?.models && offered.data && !offered.data.listed ? (offered.data.sentence ?? "The connection's list of models cannot be read now; type the model's id.") : null;
  const offeredNote = picked?.defaultModel ? `Empty: the connection's default, ${picked.defaultModel}.` : "Pick one of the models the connection offers, or type its id.";

  return (
    <EditorSection id="model" title="Model" lede="Which model this agent talks to: a connection an admin set up, and one of the models it offers.">
      <div className="grid grid-cols-2 gap-3">
        <DraftField
          path="model.connection"
          label="Connection"
          problems={problems}
          extra={[...(list.error ? [errorSentence(list.error)] : []), ...(missing ? [`No connection is named ${missing} any more; pick another.`] : [])]}
          hint={own && hasOwn ? "This agent carries its own provider, address and key, below." : picked ? `${PROVIDER_LABELS[picked.provider]}${picked.baseUrl ? ` at ${picked.baseUrl}` : ""}` : undefined}
        >
          {(control) => (
            <select
              {...control}
              value={own ? (hasOwn ? OWN : "") : model.connection}
              onChange={(e) => {
                const next = e.target.value === OWN ? "" : e.target.value;
                // Another connection offers other models; the own settings keep theirs.
                onChange(model.connection && next ? { connection: next, model: "" } : { connection: next });
              }}
              className={selectClass}
            >
              {own && !hasOwn ? <option value="">Pick a connection…</option> : null}
              {model.connection && !picked ? <option value={model.connection}>{missing ? `${missing} (not found)` : model.connection}</option> : null}
              {connections.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                </option>
              ))}
              {hasOwn ? <option value={OWN}>Own settings (advanced)</option> : null}
            </select>
          )}
        </DraftField>
        {!own ? (
          <DraftField path="model.model" label="Model" problems={problems} extra={offered.error ? [errorSentence(offered.error)] : []} hint={offeredNote}>
            {(control) => (
              <ModelCombobox
                control={control}
                value={model.model}
                onChange={(id) => onChange({ model: id })}
                options={ids}
                placeholder={picked?.defaultModel ? `Default: ${picked.defaultModel}` : "Pick or type a model id"}
                onFocus={() => setWanted(true)}
              />
            )}
          </DraftField>
        ) : null}
        {!own && unlisted ? (
          <p role="status" className="col-span-2 -mt-1 text-xs text-amber-700 dark:text-amber-400">
            {unlisted}
          </p>
        ) : null}
        {list.data && connections.length === 0 ? (
          <p className="col-span-2 text-sm text-zinc-600 dark:text-zinc-400">
            No model connections yet: an admin adds one in Settings → Models, and you pick it here.{" "}
            {admin ? (
              <Link href="/settings/models" className="text-accent dark:text-indigo-400 hover:underline">
                Add a connection
              </Link>
            ) : null}
          </p>
        ) : null}
      </div>
      {own && hasOwn ? (
        <section aria-labelledby="own-model-heading" className="mt-4 rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
          <div className="mb-3 flex items-start justify-between gap-3">
            <div>
              <h3 id="own-model-heading" className="text-sm font-medium">
                Own settings (advanced)
              </h3>
              <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">Written into this agent alone; a connection lets every agent share one, and a new key or address reaches them all.</p>
            </div>
            {admin && adoption ? (
              <Button size="sm" className="shrink-0" onClick={() => setAdopting(true)} disabled={adoption.dirty} title={adoption.dirty ? "Save or undo your changes first" : undefined}>
                Make this a connection
              </Button>
            ) : null}
          </div>
          {admin && adoption?.dirty ? <p className="mb-3 text-xs text-zinc-500 dark:text-zinc-400">Save your changes first: making a connection saves a new version of this agent.</p> : null}
          <OwnModelSettings model={model} problems={problems} onChange={onChange} />
        </section>
      ) : null}
      <div className="mt-4 grid grid-cols-2 gap-3">
        <ModelOptions model={model} problems={problems} onChange={onChange} />
      </div>
      {adoption ? (
        <AdoptDialog
          agent={adopting ? { agentId: adoption.agentId, agentName: adoption.agentName, provider: model.provider, baseUrl: model.base_url || null } : null}
          onClose={() => setAdopting(false)}
          onAdopted={async () => {
            setHasOwn(false);
            adoption.onAdopted(await queryClient.fetchQuery({ ...trpc.agents.get.queryOptions({ id: adoption.agentId }), staleTime: 0 }));
          }}
        />
      ) : null}
    </EditorSection>
  );
}
