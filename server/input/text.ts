// Text at the edge (R-input-text): every string a procedure or an API route takes goes through text(), and every JSON value it takes
// whole (a declaration, a tool's arguments or settings) through json(). PostgreSQL holds no U+0000 in text or jsonb,
// and UTF-8 has no form for half a surrogate pair (the driver would store U+FFFD in its place; db/storable.ts), so
// both are refused here with the field's name rather than failing in SQL or being changed silently.
import { z } from "zod";
import { jsonTextFault, textFault } from "@/db/storable";

/**
 * Marks the issues made here, so the sentence can put the field first (sentences.ts); `within` names the part of
 * a JSON text at fault.
 */
export const TEXT_ISSUE = "quiver/text";

/** Why `value` cannot be stored, as the end of a sentence that starts with the field's name; or null. */
export function textProblem(value: string): string | null {
  const fault = textFault(value);
  return fault ? `${fault.what}; ${fault.fix} and send the text again` : null;
}

/** The first string (value or key) in a JSON value that cannot be stored, with where it is. */
export function jsonTextProblem(value: unknown): { path: PropertyKey[]; problem: string } | null {
  const fault = jsonTextFault(value);
  if (!fault) return null;
  const problem = `${fault.what}; ${fault.fix} and send the text again`;
  return { path: fault.path, problem: fault.key === null ? problem : `has a key ${JSON.stringify(fault.key)} that ${problem}` };
}

/** A string the database can hold as it is: z.string() for every text a procedure takes. */
export function text() {
  return z.string().superRefine((value, ctx) => {
    const problem = textProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem, params: { kind: TEXT_ISSUE } });
  });
}

/** A JSON value taken whole, every string and key in it checked as text() checks one. */
export function json<T extends z.ZodType>(schema: T) {
  return schema.superRefine((value, ctx) => {
    const found = jsonTextProblem(value);
    if (found) ctx.addIssue({ code: "custom", message: found.problem, path: found.path, params: { kind: TEXT_ISSUE } });
  });
}

/**
 * JSON sent as text (an imported file): the text itself, and what it parses to, since an escape like \u0000 is
 * plain ASCII until parsed. Text that does not parse passes: the domain says what is wrong with it.
 */
export function jsonText() {
  return text().superRefine((value, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return;
    }
    const found = jsonTextProblem(parsed);
    if (!found) return;
    const within = found.path.length > 0 ? `the declaration's ${fieldName(found.path)}` : "the declaration";
    ctx.addIssue({ code: "custom", message: found.problem, params: { kind: TEXT_ISSUE, within } });
  });
}

/** A path as a person reads it: tools[0].settings.root. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => {
    if (typeof part === "number") return `${out}[${part}]`;
    const key = String(part);
    const plain = /^[A-Za-z_$][\w$-]*$/.test(key);
    if (!plain) return `${out}[${JSON.stringify(key)}]`;
    return out ? `${out}.${key}` : key;
  }, "");
}
