"use client";
// About: the agent's name, a line on what it is for, and its instructions (a tall editor that grows as you write).
import type { Problem } from "@/server/agents/declaration";
import type { Draft } from "./draft";
import { DraftField } from "./draft-field";
import { EditorSection } from "./editor-section";
import { inputClass } from "./styles";

type About = Pick<Draft, "name" | "description" | "instructions">;

export function AboutSection({ about, problems, onChange }: { about: About; problems: readonly Problem[]; onChange: (patch: Partial<About>) => void }) {
  return (
    <EditorSection id="about" title="About" lede="What this agent is called and what it should do, in your own words.">
      <div className="flex flex-col gap-3">
        <DraftField path="name" label="Name" problems={problems}>
          {(control) => (
            <input {...control} value={about.name} maxLength={80} onChange={(e) => onChange({ name: e.target.value })} className={inputClass} />
          )}
        </DraftField>
        <DraftField path="description" label="Description" problems={problems}>
          {(control) => (
            <input
              {...control}
              value={about.description}
              maxLength={2000}
              placeholder="One line on what it is for, e.g. Sorts the files that arrive in the inbox."
              onChange={(e) => onChange({ description: e.target.value })}
              className={inputClass}
            />
          )}
        </DraftField>
        <DraftField
          path="instructions"
          label="Instructions"
          problems={problems}
          hint={about.instructions ? `${about.instructions.length.toLocaleString("en")} characters` : undefined}
        >
          {(control) => (
            <textarea
              {...control}
              value={about.instructions}
              rows={10}
              placeholder="What the agent should do, how, and what it must never do. The model reads this first, every run."
              onChange={(e) => onChange({ instructions: e.target.value })}
              className={`${inputClass} min-h-48 resize-y leading-relaxed [field-sizing:content]`}
            />
          )}
        </DraftField>
      </div>
    </EditorSection>
  );
}
