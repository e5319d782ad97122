// One entry's settings against its source's settings model: each value checked by the model's JSON Schema (Ajv),
// a secret field only ever as `${NAME}` of a secret that exists, a root inside the workspace, no field the model
// does not have. Every problem carries its path, e.g. tools[1].settings.root.
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import type { JsonSchema } from "@/server/operations/operation";
import { referencedNames, SECRET_REFERENCE } from "@/server/secrets/names";
import { rootProblem } from "@/server/system/filesystem/workspace";
import { didYouMean } from "./closest";
import type { Problem } from "./declaration";

export type SettingsContext = {
  /** The names of the secrets that exist. */
  secretNames: ReadonlySet<string>;
  workspace: string;
};

type Property = JsonSchema & { description?: string; "x-quiver-kind"?: string; writeOnly?: boolean; default?: unknown };

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

export function isSecretField(property: Property): boolean {
  return property["x-quiver-kind"] === "secret" || property.writeOnly === true;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Ajv's finding in a sentence a builder can act on. */
function sentence(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "type":
      return `Write ${[String(p.type)].flat().map(article).join(" or ")} here.`;
    case "enum":
      return `Write one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}.`;
    case "minimum":
    case "exclusiveMinimum":
      return `Write a number ${error.keyword === "minimum" ? "of at least" : "above"} ${String(p.limit)}.`;
    case "maximum":
    case "exclusiveMaximum":
      return `Write a number ${error.keyword === "maximum" ? "of at most" : "below"} ${String(p.limit)}.`;
    default:
      return `This value ${error.message ?? "does not fit the setting"}.`;
  }
}

function references(value: unknown, path: string, ctx: SettingsContext): Problem[] {
  return [...referencedNames(value)]
    .filter((name) => !ctx.secretNames.has(name))
    .map((name) => ({ path, message: `There is no secret named ${name}; pick one that exists, or ask an admin to create it in Settings → Secrets.` }));
}

export function settingsProblems(settings: Record<string, unknown>, schema: JsonSchema | null, title: string, at: string, ctx: SettingsContext): Problem[] {
  const problems: Problem[] = [];
  const keys = Object.keys(settings);
  if (!schema) {
    if (keys.length > 0) problems.push({ path: at, message: `${title} has nothing to set; remove these settings.` });
    return problems;
  }
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set((schema.required ?? []) as string[]);
  const checked: Record<string, unknown> = {};
  for (const key of keys) {
    if (!(key in properties)) {
      problems.push({ path: `${at}.${key}`, message: `${title} has no setting ${key}.${didYouMean(key, Object.keys(properties)) || ` Its settings are ${Object.keys(properties).join(", ")}.`}` });
    }
  }
  for (const [key, property] of Object.entries(properties)) {
    const path = `${at}.${key}`;
    const value = settings[key];
    const about = property.description ? ` (${property.description.replace(/\.$/, "")})` : "";
    // null is "not set", as the tool host reads it.
    if (value === undefined || value === null) {
      if (required.has(key) && property.default === undefined) {
        problems.push({ path, message: isSecretField(property) ? `Pick the secret for ${key}${about}.` : `Fill in ${key}${about}.` });
      }
      continue;
    }
    if (isSecretField(property)) {
      const match = typeof value === "string" ? SECRET_REFERENCE.exec(value) : null;
      if (!match) {
        problems.push({
          path,
          message: `${key} is a secret, so its value is never written here: save it in Settings → Secrets and pick it by name (it is stored as \${NAME}).`,
        });
      } else {
        problems.push(...references(value, path, ctx));
      }
      continue;
    }
    if (property["x-quiver-kind"] === "root") {
      const problem = rootProblem(value, ctx.workspace);
      if (problem) problems.push({ path, message: problem });
      continue;
    }
    problems.push(...references(value, path, ctx));
    checked[key] = value;
  }
  const validate = validatorFor({ ...schema, required: [] });
  if (!validate(checked)) {
    for (const error of validate.errors ?? []) {
      const key = error.instancePath.split("/").filter(Boolean).join(".");
      if (error.keyword === "additionalProperties") continue;
      problems.push({ path: key ? `${at}.${key}` : at, message: sentence(error) });
    }
  }
  return problems;
}
