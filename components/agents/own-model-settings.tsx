"use client";
// Own settings (advanced): the provider, model, address and key written into the agent itself, as agents made before
// model connections carry them. Still editable; an admin can turn them into a connection others pick by name.
import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import type { Problem } from "@/server/agents/declaration";
import { pickedName } from "@/components/secrets/secret-picker";
import type { DraftModel, Provider } from "./draft";
import { DraftField } from "./draft-field";
import { PROVIDER_LABELS } from "./labels";
import { inputClass, selectClass } from "./styles";

type Own = Pick<DraftModel, "provider" | "model" | "base_url" | "api_key">;

const MODEL_EXAMPLES: Record<Provider, string> = { openai: "gpt-4o-mini", anthropic: "claude-sonnet-4-5", "openai-compatible": "qwen3" };

export function OwnModelSettings({ model, problems, onChange }: { model: Own; problems: readonly Problem[]; onChange: (patch: Partial<Own>) => void }) {
  const trpc = useTRPC();
  const names = useQuery(trpc.secrets.names.queryOptions());
  const picked = pickedName(model.api_key);
  const known = names.data ?? [];
  const options = picked && !known.some((s) => s.name === picked) ? [...known, { name: picked, description: "not found" }] : known;
  const keyOptional = model.provider === "openai-compatible";

  return (
    <div className="grid grid-cols-2 gap-3">
      <DraftField path="model.provider" label="Provider" problems={problems}>
        {(control) => (
          <select {...control} value={model.provider} onChange={(e) => onChange({ provider: e.target.value as Provider })} className={selectClass}>
            {(Object.keys(PROVIDER_LABELS) as Provider[]).map((p) => (
              <option key={p} value={p}>
                {PROVIDER_LABELS[p]}
              </option>
            ))}
          </select>
        )}
      </DraftField>
      <DraftField path="model.model" label="Model" problems={problems}>
        {(control) => (
          <input
            {...control}
            value={model.model}
            placeholder={`e.g. ${MODEL_EXAMPLES[model.provider]}`}
            onChange={(e) => onChange({ model: e.target.value })}
            className={`${inputClass} font-mono`}
          />
        )}
      </DraftField>
      {model.provider === "openai-compatible" ? (
        <DraftField
          path="model.base_url"
          label="Server address"
          problems={problems}
          className="col-span-2"
          hint="The address of a server that speaks OpenAI's API, such as Ollama or vLLM, ending in /v1."
        >
          {(control) => (
            <input
              {...control}
              value={model.base_url}
              placeholder="http://127.0.0.1:11434/v1"
              onChange={(e) => onChange({ base_url: e.target.value })}
              className={`${inputClass} font-mono`}
            />
          )}
        </DraftField>
      ) : null}
      <DraftField
        path="model.api_key"
        label={
          <>
            <KeyRound aria-hidden className="h-3.5 w-3.5 text-zinc-500 dark:text-zinc-400" /> Key
          </>
        }
        problems={problems}
        extra={names.error ? [errorSentence(names.error)] : []}
        className="col-span-2"
        hint={
          names.data && known.length === 0
            ? "No secrets yet: an admin saves the key in Settings → Secrets, and you pick it here by name."
            : "A secret picked by name; its value reaches the model's provider and never this page."
        }
      >
        {(control) => (
          <select
            {...control}
            value={picked}
            onChange={(e) => onChange({ api_key: e.target.value ? `\${${e.target.value}}` : "" })}
            className={selectClass}
          >
            <option value="">{keyOptional ? "(no key: the server needs none)" : "Pick the secret that holds the key…"}</option>
            {options.map((secret) => (
              <option key={secret.name} value={secret.name}>
                {secret.description ? `${secret.name} — ${secret.description}` : secret.name}
              </option>
            ))}
          </select>
        )}
      </DraftField>
    </div>
  );
}
