"use client";
// Limits: how long a call may take, how much of a result the model reads, retries, repeated calls, and what an
// operation does when its approval is left at the agent's default.
import type { Problem } from "@/server/agents/declaration";
import { PERMISSION_LABELS, PERMISSION_LEVELS, type PermissionLevel } from "@/server/agents/permissions";
import { fieldId, problemsAt, type Draft } from "./draft";
import { EditorSection } from "./editor-section";
import { FieldProblems } from "./field-problems";
import { inputClass, selectClass } from "./styles";

type Policy = Draft["policy"];

const NUMBERS = [
  { key: "timeout_s", label: "Timeout (seconds)", hint: "How long one call may take, unless the operation sets its own bound." },
  { key: "output_cap", label: "Output size (characters)", hint: "How much of one result the model reads; the rest is kept in a file." },
  { key: "retry", label: "Retries", hint: "How often a call that failed for a passing reason is tried again, where that is safe." },
] as const;

export function LimitsSection({ policy, problems, onChange }: { policy: Policy; problems: readonly Problem[]; onChange: (patch: Partial<Policy>) => void }) {
  const at = (path: string) => problemsAt(problems, path);
  return (
    <EditorSection id="limits" title="Limits" lede="Bounds on every call this agent makes.">
      <div className="grid grid-cols-3 gap-3">
        {NUMBERS.map(({ key, label, hint }) => {
          const id = fieldId(`policy.${key}`);
          return (
            <div key={key} className="flex flex-col gap-1 text-sm">
              <label htmlFor={id} className="font-medium">
                {label}
              </label>
              <input
                id={id}
                inputMode="numeric"
                value={policy[key]}
                onChange={(e) => onChange({ [key]: e.target.value })}
                aria-invalid={at(`policy.${key}`).length > 0}
                aria-describedby={`${id}-note`}
                className={`${inputClass} tabular-nums`}
              />
              <FieldProblems id={`${id}-note`} messages={at(`policy.${key}`)} hint={hint} />
            </div>
          );
        })}
        <div className="col-span-3 flex flex-col gap-1 text-sm">
          <label htmlFor={fieldId("policy.dedupe")} className="flex items-center gap-2 font-medium">
            <input id={fieldId("policy.dedupe")} type="checkbox" checked={policy.dedupe} onChange={(e) => onChange({ dedupe: e.target.checked })} />
            Answer repeated calls from the first result
          </label>
          <span className="pl-6 text-xs text-zinc-500 dark:text-zinc-400">
            When the model makes the very same call twice in one run, it gets the first answer again instead of a second call.
          </span>
        </div>
        <div className="col-span-3 flex flex-col gap-1 text-sm">
          <label htmlFor={fieldId("policy.permission")} className="font-medium">
            Default approval
          </label>
          <select
            id={fieldId("policy.permission")}
            value={policy.permission}
            onChange={(e) => onChange({ permission: e.target.value as PermissionLevel })}
            aria-describedby={`${fieldId("policy.permission")}-note`}
            className={`${selectClass} w-48`}
          >
            {PERMISSION_LEVELS.map((level) => (
              <option key={level} value={level}>
                {PERMISSION_LABELS[level]}
              </option>
            ))}
          </select>
          <FieldProblems
            id={`${fieldId("policy.permission")}-note`}
            messages={at("policy.permission")}
            hint="What an operation does when its approval is left at “Agent's default”."
          />
        </div>
      </div>
    </EditorSection>
  );
}
