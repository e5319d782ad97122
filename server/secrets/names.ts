// What a secret may be called and hold: the rules the store enforces and the New secret dialog checks as
// you type. Pure, so the browser can import it.
export const SECRET_NAME = /^[A-Z][A-Z0-9_]*$/;
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
