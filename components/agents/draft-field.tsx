"use client";
// One labelled control of the agent page, with the problems the server found at its path (or a hint) under
// it: the control gets the id, aria-invalid and aria-describedby that tie the three together.
import type { ReactNode } from "react";
import type { Problem } from "@/server/agents/declaration";
import { fieldId, problemsAt } from "./draft";
import { FieldProblems } from "./field-problems";

export type ControlProps = { id: string; "aria-invalid": boolean; "aria-describedby": string };

export function DraftField({
  path,
  label,
  problems,
  extra = [],
  hint,
  className = "",
  children,
}: {
  /** The field's path in the declaration, e.g. "model.base_url": where the server's problems point. */
  path: string;
  label: ReactNode;
  problems: readonly Problem[];
  /** Other sentences to show with the problems, e.g. a failed lookup. */
  extra?: string[];
  hint?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = fieldId(path);
  const messages = [...problemsAt(problems, path), ...extra];
  return (
    <div className={`flex flex-col gap-1 text-sm ${className}`}>
      <label htmlFor={id} className="flex items-center gap-1.5 font-medium">
        {label}
      </label>
      {children({ id, "aria-invalid": messages.length > 0, "aria-describedby": `${id}-note` })}
      <FieldProblems id={`${id}-note`} messages={messages} hint={hint} />
    </div>
  );
}
