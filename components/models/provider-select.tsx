"use client";
// Provider: OpenAI, Anthropic, or a server that speaks OpenAI's API — picked by its preset (Ollama, vLLM, LM Studio,
// llama.cpp, OpenRouter), which fills its usual address, or as another server whose address the admin writes.
import { PRESETS } from "@/server/models/presets";
import type { ConnectionForm, Provider } from "./connection-form";

const OTHER = "openai-compatible";
const OPENAI_COMPATIBLE_PRESETS = PRESETS.filter((p) => p.provider === "openai-compatible" && p.baseUrl !== null) as Array<(typeof PRESETS)[number] & { baseUrl: string }>;
const presetNames = new Set(PRESETS.map((p) => p.name));
const presetValue = (id: string) => `preset:${id}`;

/** The preset whose address the form holds, if any: how an existing connection shows which server it is. */
function presetOf(form: Pick<ConnectionForm, "provider" | "baseUrl">) {
  if (form.provider !== "openai-compatible") return undefined;
  const address = form.baseUrl.trim().replace(/\/+$/, "");
  return OPENAI_COMPATIBLE_PRESETS.find((p) => p.baseUrl.replace(/\/+$/, "") === address);
}

export function ProviderSelect({
  form,
  onChange,
  error,
  suggestName,
}: {
  form: ConnectionForm;
  onChange: (patch: Partial<ConnectionForm>) => void;
  error: string | null;
  /** A new connection takes the preset's suggested name; a saved one keeps its own. */
  suggestName: boolean;
}) {
  const preset = presetOf(form);
  const value = preset ? presetValue(preset.id) : form.provider === "openai-compatible" ? OTHER : form.provider;
  const presetAddress = (url: string) => OPENAI_COMPATIBLE_PRESETS.some((p) => p.baseUrl === url);

  function pick(next: string) {
    const chosen = OPENAI_COMPATIBLE_PRESETS.find((p) => presetValue(p.id) === next);
    // A name still empty, or still another preset's suggestion, becomes this one's.
    const name = (suggested: string) => (suggestName && (!form.name.trim() || presetNames.has(form.name.trim())) ? { name: suggested } : {});
    if (chosen) return onChange({ provider: "openai-compatible", baseUrl: chosen.baseUrl, ...name(chosen.name) });
    // An address a preset filled is the preset's, not the admin's: it goes with the preset.
    const baseUrl = presetAddress(form.baseUrl.trim()) ? "" : form.baseUrl;
    const own = PRESETS.find((p) => p.id === next);
    onChange({ provider: next as Provider, baseUrl, ...(own ? name(own.name) : {}) });
  }

  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor="conn-provider" className="font-medium">
        Provider
      </label>
      <select
        id="conn-provider"
        value={value}
        onChange={(e) => pick(e.target.value)}
        aria-invalid={!!error}
        aria-describedby="conn-provider-note"
        className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900"
      >
        <option value="openai">OpenAI</option>
        <option value="anthropic">Anthropic</option>
        <optgroup label="OpenAI-compatible server">
          {OPENAI_COMPATIBLE_PRESETS.map((p) => (
            <option key={p.id} value={presetValue(p.id)}>
              {p.label}
            </option>
          ))}
          <option value={OTHER}>Another OpenAI-compatible server</option>
        </optgroup>
      </select>
      <span id="conn-provider-note" className={`text-xs ${error ? "text-red-600 dark:text-red-400" : "text-zinc-500 dark:text-zinc-400"}`}>
        {error ?? (preset ? `${preset.label} usually answers at ${preset.baseUrl}; change the address below if yours differs.` : form.provider === "openai-compatible" ? "Any server that answers OpenAI's API at an address." : "")}
      </span>
    </div>
  );
}
