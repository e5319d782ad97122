// A webhook's template (R-trigger-webhook-template): text with `{{body}}` for the whole request body and
// `{{body.a.b}}` for one field of it (array items by number, `{{body.items.0.name}}`). A field the request does not
// have renders empty and is named in the answer, so the sender sees what the agent was not told. Edit when a
// template may say more than where a field is.
export const TEMPLATE_MAX = 20_000;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const PATH = /^body(?:\.[A-Za-z0-9_-]+)*$/;

/** The sentence for a template that is not one, or null. */
export function templateProblem(template: string): string | null {
  if (template.length > TEMPLATE_MAX) return `A template has at most ${TEMPLATE_MAX.toLocaleString("en")} characters; this one has ${template.length.toLocaleString("en")}.`;
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (!PATH.test(match[1]!)) {
      return `“${match[0]}” is not a field of the request; write {{body}} for the whole body or {{body.name}} for one field (nested: {{body.issue.title}}).`;
    }
  }
  const rest = template.replace(PLACEHOLDER, "");
  if (rest.includes("{{")) return "The template has a “{{” with no “}}” closing it; close it, or take it out.";
  if (rest.includes("}}")) return "The template has a “}}” with no “{{” opening it; open it, or take it out.";
  return null;
}

/** A value as the message shows it: text as it is, numbers and true/false as written, the rest as indented JSON. */
export function shown(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value, null, 2);
}

function fieldAt(body: unknown, path: string[]): { found: boolean; value: unknown } {
  let here: unknown = body;
  for (const key of path) {
    if (here === null || typeof here !== "object" || !Object.hasOwn(here, key)) return { found: false, value: undefined };
    here = (here as Record<string, unknown>)[key];
  }
  return { found: true, value: here };
}

/** The message a checked template makes of `body`, and the fields it named that the body lacks. */
export function render(template: string, body: unknown): { message: string; missing: string[] } {
  const missing: string[] = [];
  const message = template.replace(PLACEHOLDER, (_whole, expression: string) => {
    const path = expression.split(".").slice(1);
    const { found, value } = fieldAt(body, path);
    if (!found) {
      if (!missing.includes(expression)) missing.push(expression);
      return "";
    }
    return shown(value);
  });
  return { message, missing };
}
