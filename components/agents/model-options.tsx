"use client";
// The per-agent model options: temperature, maximum output tokens and reasoning effort. Each left empty is not
// sent, and the provider's own default applies — which the field says, so a builder knows what "empty" means.
import { MODEL_OPTIONS, REASONING_EFFORTS, type ReasoningEffort } from "@/server/agents/declaration";
import type { Problem } from "@/server/agents/declaration";
import type { DraftModel } from "./draft";
import { DraftField } from "./draft-field";
import { inputClass, selectClass } from "./styles";

const EFFORT_LABELS: Record<ReasoningEffort, string> = { low: "Low", medium: "Medium", high: "High" };

type Options = Pick<DraftModel, "temperature" | "max_tokens" | "reasoning_effort">;

export function ModelOptions({ model, problems, onChange }: { model: Options; problems: readonly Problem[]; onChange: (patch: Partial<Options>) => void }) {
  return (
    <div className="col-span-2 grid grid-cols-3 gap-3">
      <DraftField path="model.temperature" label="Temperature" problems={problems} hint={`Empty: ${MODEL_OPTIONS.temperature.shown}. 0 answers alike each time; up to 2 varies more.`}>
        {(control) => (
          <input
            {...control}
            inputMode="decimal"
            value={model.temperature}
            placeholder="Default"
            onChange={(e) => onChange({ temperature: e.target.value })}
            className={inputClass}
          />
        )}
      </DraftField>
      <DraftField path="model.max_tokens" label="Maximum output tokens" problems={problems} hint={`Empty: ${MODEL_OPTIONS.max_tokens.shown}.`}>
        {(control) => (
          <input
            {...control}
            inputMode="numeric"
            value={model.max_tokens}
            placeholder="Default"
            onChange={(e) => onChange({ max_tokens: e.target.value })}
            className={inputClass}
          />
        )}
      </DraftField>
      <DraftField path="model.reasoning_effort" label="Reasoning effort" problems={problems} hint={`Default: ${MODEL_OPTIONS.reasoning_effort.shown}.`}>
        {(control) => (
          <select
            {...control}
            value={model.reasoning_effort}
            onChange={(e) => onChange({ reasoning_effort: e.target.value as ReasoningEffort | "" })}
            className={selectClass}
          >
            <option value="">Default</option>
            {REASONING_EFFORTS.map((effort) => (
              <option key={effort} value={effort}>
                {EFFORT_LABELS[effort]}
              </option>
            ))}
          </select>
        )}
      </DraftField>
    </div>
  );
}
