// A call's arguments as the model wrote them: parsed, and checked against the operation's input schema (Ajv)
// before anything runs (R-loop-malformed-args, R-loop-validate). Garbled or cut-off JSON, a value that is not an object, and arguments that
// do not fit the schema each answer one line the model can act on; the tool never runs on a partial call. Nor on text
// PostgreSQL cannot hold (a NUL, half a surrogate pair): the model is told where, and may send it again (R-args-nul).
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import { jsonTextFault } from "@/db/storable";
import type { JsonSchema } from "@/server/operations/operation";

/** A refusal keeps the arguments as sent when they were a JSON object (`sent`), so the trace can show them. */
export type Parsed = { ok: true; args: Record<string, unknown> } | { ok: false; message: string; sent?: Record<string, unknown> };

const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: false, useDefaults: false });
const compiled = new Map<string, ValidateFunction | null>();

function validatorFor(schema: JsonSchema): ValidateFunction | null {
  const key = JSON.stringify(schema);
  if (!compiled.has(key)) {
    let validate: ValidateFunction | null = null;
    try {
      validate = ajv.compile(schema);
    } catch {
      // A schema Ajv cannot read is the source's problem; the tool host still checks what it receives.
      validate = null;
    }
    compiled.set(key, validate);
  }
  return compiled.get(key)!;
}

/** Whether the text stops before its JSON is complete: an open string, object or array at the end. */
export function looksCutOff(text: string): boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") depth--;
  }
  return inString || depth > 0;
}

function tail(text: string): string {
  const end = text.slice(-40).replace(/\s+/g, " ");
  return text.length > 40 ? `…${end}` : end;
}

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.split("/").filter(Boolean).join(".");
  if (error.keyword === "required") {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    return path ? `${path}.${missing}` : missing;
  }
  if (error.keyword === "additionalProperties") {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    return path ? `${path}.${extra}` : extra;
  }
  return path;
}

/** Ajv's first finding as one line naming the field. */
function schemaProblem(error: ErrorObject, name: string, schema: JsonSchema): string {
  const field = fieldOf(error);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${name} needs the argument \`${field}\`; nothing ran, so call it again with it.`;
    case "additionalProperties": {
      const known = Object.keys((schema.properties ?? {}) as object);
      const where = error.instancePath ? `\`${error.instancePath.split("/").filter(Boolean).join(".")}\`` : name;
      return `${where} takes no argument \`${field}\`${error.instancePath ? "" : `; its arguments are ${known.join(", ") || "none"}`}; nothing ran, so call it again without it.`;
    }
    case "type":
      return `\`${field}\` of ${name} must be ${[p.type].flat().join(" or ")}; nothing ran, so call it again with that fixed.`;
    case "enum":
      return `\`${field}\` of ${name} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}; nothing ran, so call it again with one of them.`;
    default:
      return `\`${field || "the arguments"}\` of ${name} ${error.message ?? "does not fit its schema"}; nothing ran, so call it again with that fixed.`;
  }
}

/** The arguments of a call to `name`, from the text the model streamed. An empty text is an empty object. */
export function parseArguments(input: unknown, name: string, schema: JsonSchema): Parsed {
  let value: unknown = input;
  if (typeof input === "string") {
    const text = input.trim();
    if (text === "") value = {};
    else {
      try {
        value = JSON.parse(text);
      } catch (error) {
        if (looksCutOff(text)) {
          return {
            ok: false,
            message: `The arguments of ${name} were cut off after ${text.length} characters (they end at “${tail(text)}”), so it did not run; send the call again with the whole JSON object.`,
          };
        }
        return {
          ok: false,
          message: `The arguments of ${name} are not valid JSON (${(error as Error).message}), so it did not run; send the call again with the arguments as one JSON object.`,
        };
      }
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, message: `The arguments of ${name} must be a JSON object of argument names to values, not ${Array.isArray(value) ? "an array" : JSON.stringify(value)}; nothing ran.` };
  }
  const args = value as Record<string, unknown>;
  // A NUL or half a surrogate pair in a value or a key: no tool gets it, and the model is told where (R-args-nul).
  const fault = jsonTextFault(args);
  if (fault) {
    const at = [...fault.path, ...(fault.key === null ? [] : [fault.key])].map(String).join(".");
    const where = fault.key === null ? `\`${at}\` of ${name}` : `The argument name \`${at}\` of ${name}`;
    return { ok: false, message: `${where} ${fault.what}, so it did not run; ${fault.fix} and send the call again.`, sent: args };
  }
  const validate = validatorFor(schema);
  if (validate && !validate(args)) return { ok: false, message: schemaProblem(validate.errors![0]!, name, schema) };
  return { ok: true, args };
}

/** The arguments with the schema's defaults filled in, for the built-ins' handlers. */
export function withDefaults(args: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { default?: unknown }>;
  const out = { ...args };
  for (const [key, property] of Object.entries(properties)) {
    if (out[key] === undefined && property.default !== undefined) out[key] = structuredClone(property.default);
  }
  return out;
}
