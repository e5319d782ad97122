"use client";
// Model: who serves it (OpenAI, Anthropic, or an OpenAI-compatible server at an address), which model, and the
// key, picked by the name of a secret: the page never holds a key, only ${NAME}.
import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useTRPC } from "@/components/trpc/provider";
import type { Problem } from "@/server/agents/declaration";
import { pickedName } from "@/components/secrets/secret-picker";
import { fieldId, problemsAt, type Draft, type Provider } from "./draft";
import { EditorSection } from "./editor-section";
import { FieldProblems } from "./field-problems";
import { PROVIDER_LABELS } from "./labels";
import { inputClass, selectClass } from "./styles";

type Model = Draft["model"];

const MODEL_EXAMPLES: Record<Provider, string> = { openai: "gpt-4o-mini", anthropic: "claude-sonnet-4-5", "openai-compatible": "qwen3" };

export function ModelSection({ model, problems, onChange }: { model: Model; problems: readonly Problem[]; onChange: (patch: Partial<Model>) => void }) {
  const trpc = useTRPC();
  const names = useQuery(trpc.secrets.names.queryOptions());
  const at = (path: string) => problemsAt(problems, path);
  const picked = pickedName(model.api_key);
  const known = names.data ?? [];
  const options = picked && !known.some((s) => s.name === picked) ? [...known, { name: picked, description: "not found" }] : known;
  const keyOptional = model.provider === "openai-compatible";

  return (
    <EditorSection id="model" title="Model" lede="Who runs the model this agent talks to, and the key it pays with.">
      <div className="grid grid-cols-2 gap-3">
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={fieldId("model.provider")} className="font-medium">
            Provider
          </label>
          <select
            id={fieldId("model.provider")}
            value={model.provider}
            onChange={(e) => onChange({ provider: e.target.value as Provider })}
            className={selectClass}
          >
            {(Object.keys(PROVIDER_LABELS) as Provider[]).map((p) => (
              <option key={p} value={p}>
                {PROVIDER_LABELS[p]}
              </option>
            ))}
          </select>
          <FieldProblems id={`${fieldId("model.provider")}-note`} messages={at("model.provider")} />
        </div>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={fieldId("model.model")} className="font-medium">
            Model
          </label>
          <input
            id={fieldId("model.model")}
            value={model.model}
            placeholder={`e.g. ${MODEL_EXAMPLES[model.provider]}`}
            onChange={(e) => onChange({ model: e.target.value })}
            aria-invalid={at("model.model").length > 0}
            aria-describedby={`${fieldId("model.model")}-note`}
            className={`${inputClass} font-mono`}
          />
          <FieldProblems id={`${fieldId("model.model")}-note`} messages={at("model.model")} />
        </div>
        {model.provider === "openai-compatible" ? (
          <div className="col-span-2 flex flex-col gap-1 text-sm">
            <label htmlFor={fieldId("model.base_url")} className="font-medium">
              Server address
            </label>
            <input
              id={fieldId("model.base_url")}
              value={model.base_url}
              placeholder="http://127.0.0.1:11434/v1"
              onChange={(e) => onChange({ base_url: e.target.value })}
              aria-invalid={at("model.base_url").length > 0}
              aria-describedby={`${fieldId("model.base_url")}-note`}
              className={`${inputClass} font-mono`}
            />
            <FieldProblems
              id={`${fieldId("model.base_url")}-note`}
              messages={at("model.base_url")}
              hint="The address of a server that speaks OpenAI's API, such as Ollama or vLLM, ending in /v1."
            />
          </div>
        ) : null}
        <div className="col-span-2 flex flex-col gap-1 text-sm">
          <label htmlFor={fieldId("model.api_key")} className="flex items-center gap-1.5 font-medium">
            <KeyRound aria-hidden className="h-3.5 w-3.5 text-zinc-500" /> Key
          </label>
          <select
            id={fieldId("model.api_key")}
            value={picked}
            onChange={(e) => onChange({ api_key: e.target.value ? `\${${e.target.value}}` : "" })}
            aria-invalid={at("model.api_key").length > 0}
            aria-describedby={`${fieldId("model.api_key")}-note`}
            className={selectClass}
          >
            <option value="">{keyOptional ? "(no key: the server needs none)" : "Pick the secret that holds the key…"}</option>
            {options.map((secret) => (
              <option key={secret.name} value={secret.name}>
                {secret.description ? `${secret.name} — ${secret.description}` : secret.name}
              </option>
            ))}
          </select>
          <FieldProblems
            id={`${fieldId("model.api_key")}-note`}
            messages={[...at("model.api_key"), ...(names.error ? [names.error.message] : [])]}
            hint={
              names.data && known.length === 0
                ? "No secrets yet: an admin saves the key in Settings → Secrets, and you pick it here by name."
                : "A secret picked by name; its value reaches the model's provider and never this page."
            }
          />
        </div>
      </div>
    </EditorSection>
  );
}
