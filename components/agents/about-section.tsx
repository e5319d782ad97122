"use client";
// About: the agent's name, a line on what it is for, and its instructions (a tall editor that grows as you write).
import type { Problem } from "@/server/agents/declaration";
import { fieldId, problemsAt, type Draft } from "./draft";
import { EditorSection } from "./editor-section";
import { FieldProblems } from "./field-problems";
import { inputClass } from "./styles";

type About = Pick<Draft, "name" | "description" | "instructions">;

export function AboutSection({ about, problems, onChange }: { about: About; problems: readonly Problem[]; onChange: (patch: Partial<About>) => void }) {
  const at = (path: string) => problemsAt(problems, path);
  return (
    <EditorSection id="about" title="About" lede="What this agent is called and what it should do, in your own words.">
      <div className="flex flex-col gap-3">
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={fieldId("name")} className="font-medium">
            Name
          </label>
          <input
            id={fieldId("name")}
            value={about.name}
            maxLength={80}
            onChange={(e) => onChange({ name: e.target.value })}
            aria-invalid={at("name").length > 0}
            aria-describedby={`${fieldId("name")}-note`}
            className={inputClass}
          />
          <FieldProblems id={`${fieldId("name")}-note`} messages={at("name")} />
        </div>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={fieldId("description")} className="font-medium">
            Description
          </label>
          <input
            id={fieldId("description")}
            value={about.description}
            maxLength={2000}
            placeholder="One line on what it is for, e.g. Sorts the files that arrive in the inbox."
            onChange={(e) => onChange({ description: e.target.value })}
            aria-invalid={at("description").length > 0}
            aria-describedby={`${fieldId("description")}-note`}
            className={inputClass}
          />
          <FieldProblems id={`${fieldId("description")}-note`} messages={at("description")} />
        </div>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={fieldId("instructions")} className="font-medium">
            Instructions
          </label>
          <textarea
            id={fieldId("instructions")}
            value={about.instructions}
            rows={10}
            placeholder="What the agent should do, how, and what it must never do. The model reads this first, every run."
            onChange={(e) => onChange({ instructions: e.target.value })}
            aria-invalid={at("instructions").length > 0}
            aria-describedby={`${fieldId("instructions")}-note`}
            className={`${inputClass} min-h-48 resize-y leading-relaxed [field-sizing:content]`}
          />
          <FieldProblems
            id={`${fieldId("instructions")}-note`}
            messages={at("instructions")}
            hint={about.instructions ? `${about.instructions.length.toLocaleString("en")} characters` : undefined}
          />
        </div>
      </div>
    </EditorSection>
  );
}
