// What a secret may be called and hold, and how settings name it (`${NAME}`): the rules the store enforces, the
// New secret dialog checks as you type, and every reader of a reference uses. Written once here so they cannot
// drift apart; pure, so the browser can import it.
const NAME = "[A-Z][A-Z0-9_]*";

export const SECRET_NAME = new RegExp(`^${NAME}$`);
/** A secret picked by name: the whole value is `${NAME}`. */
export const SECRET_REFERENCE = new RegExp(`^\\$\\{(${NAME})\\}$`);
/** `${NAME}` references anywhere in a settings value (a global pattern: use it with matchAll or replace). */
export const REFERENCE = new RegExp(`\\$\\{(${NAME})\\}`, "g");

export const NAME_MAX = 64;
export const VALUE_MAX = 65_536;
export const DESCRIPTION_MAX = 500;

/** The sentence that says why `name` cannot name a secret, or null when it can. */
export function secretNameProblem(name: string): string | null {
  if (name.length === 0) return "Give the secret a name, like TICKETS_TOKEN.";
  if (name.length > NAME_MAX) return `A secret's name has at most ${NAME_MAX} characters; this one has ${name.length}.`;
  if (!SECRET_NAME.test(name)) {
    const suggestion = name.toUpperCase().replace(/[^A-Z0-9_]+/g, "_").replace(/^[^A-Z]+/, "") || "API_TOKEN";
    return `“${name}” is not a secret name: use capital letters, digits and underscores, starting with a letter (for example ${suggestion.slice(0, NAME_MAX)}).`;
  }
  return null;
}

/** The sentence that says why `value` cannot be stored, or null when it can. */
export function secretValueProblem(value: string): string | null {
  if (value.length === 0) return "A secret needs a value; paste it in the Value field.";
  if (value.length > VALUE_MAX) return `A secret's value has at most ${VALUE_MAX} characters; this one has ${value.length}.`;
  return null;
}

/** The secret names a JSON-like value references, in order of first appearance. */
export function referencedNames(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === "string") for (const match of value.matchAll(REFERENCE)) into.add(match[1]!);
  else if (Array.isArray(value)) value.forEach((item) => referencedNames(item, into));
  else if (value !== null && typeof value === "object") Object.values(value).forEach((item) => referencedNames(item, into));
  return into;
}

/** A LIKE pattern for `${NAME}` (any name when null) in a jsonb column's text: its `_` would otherwise match any character. */
export function likeReference(name: string | null): string {
  return name === null ? "%${%" : `%\${${name.replace(/[\\%_]/g, "\\$&")}}%`;
}
