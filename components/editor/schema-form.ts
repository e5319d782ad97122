// A form from an operation's input schema: one field per parameter, defaults filled, values checked
// (types first, then the whole schema with Ajv) before anything is sent, each problem at its field.
import Ajv, { type ValidateFunction } from "ajv";

export type FieldKind = "string" | "integer" | "number" | "boolean" | "enum" | "json";

export type FieldSpec = {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string | null;
  default: unknown;
  /** For "enum": the allowed values. */
  options: unknown[];
  /** For "json": whether an array or an object is expected. */
  shape: "array" | "object" | null;
};

export type FormValues = Record<string, string | boolean>;

type Property = { type?: unknown; enum?: unknown[]; description?: unknown; default?: unknown };

export function fieldsOf(schema: Record<string, unknown>): FieldSpec[] {
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const type = Array.isArray(property.type) ? property.type.find((t) => t !== "null") : property.type;
    const kind: FieldKind = Array.isArray(property.enum)
      ? "enum"
      : type === "string" || type === "integer" || type === "number" || type === "boolean"
        ? type
        : "json";
    return {
      name,
      kind,
      required: required.has(name),
      description: typeof property.description === "string" ? property.description : null,
      default: property.default,
      options: Array.isArray(property.enum) ? property.enum : [],
      shape: kind === "json" ? (type === "object" ? "object" : "array") : null,
    };
  });
}

/** The form's first values: each default, as the field shows it. */
export function initialValues(fields: FieldSpec[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    if (field.kind === "boolean") values[field.name] = field.default === true;
    else if (field.default === undefined || field.default === null) values[field.name] = "";
    else if (field.kind === "json" || field.kind === "enum") values[field.name] = JSON.stringify(field.default);
    else values[field.name] = String(field.default);
  }
  return values;
}

/** The form's values as arguments (only those given), or what is wrong, field by field. */
export function toArgs(fields: FieldSpec[], values: FormValues): { args: Record<string, unknown>; errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = values[field.name];
    if (field.kind === "boolean") {
      args[field.name] = raw === true;
      continue;
    }
    const text = typeof raw === "string" ? raw : "";
    if (text.trim() === "" && field.kind !== "string") {
      if (field.required) errors[field.name] = `${field.name} is required.`;
      continue;
    }
    if (text === "" && field.kind === "string") {
      if (field.required) errors[field.name] = `${field.name} is required.`;
      continue;
    }
    switch (field.kind) {
      case "string":
        args[field.name] = text;
        break;
      case "integer":
        if (/^-?\d+$/.test(text.trim())) args[field.name] = Number.parseInt(text, 10);
        else errors[field.name] = `${field.name} must be a whole number, like 3.`;
        break;
      case "number":
        if (Number.isFinite(Number(text))) args[field.name] = Number(text);
        else errors[field.name] = `${field.name} must be a number, like 2.5.`;
        break;
      case "enum":
        args[field.name] = JSON.parse(text) as unknown;
        break;
      case "json": {
        try {
          const parsed = JSON.parse(text) as unknown;
          const isArray = Array.isArray(parsed);
          const isObject = typeof parsed === "object" && parsed !== null && !isArray;
          if (field.shape === "array" && !isArray) errors[field.name] = `${field.name} must be a JSON list, like ["a", "b"].`;
          else if (field.shape === "object" && !isObject) errors[field.name] = `${field.name} must be a JSON object, like {"key": "value"}.`;
          else args[field.name] = parsed;
        } catch {
          errors[field.name] = `${field.name} is not valid JSON${field.shape === "object" ? ', like {"key": "value"}' : ', like ["a", "b"]'}.`;
        }
        break;
      }
    }
  }
  return { args, errors };
}

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ValidateFunction>();

/** The schema's own rules (item types, enums, bounds) over arguments that already have the right shapes. */
export function schemaErrors(schema: Record<string, unknown>, args: Record<string, unknown>): Record<string, string> {
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch {
      return {};
    }
    compiled.set(schema, validate);
  }
  if (validate(args)) return {};
  const errors: Record<string, string> = {};
  for (const error of validate.errors ?? []) {
    if (error.keyword === "required") {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      errors[missing] ??= `${missing} is required.`;
      continue;
    }
    const [, field = "", ...rest] = error.instancePath.split("/");
    const where = rest.length > 0 ? `${field}/${rest.join("/")}` : field;
    errors[field] ??= `${where} ${error.message ?? "is not valid"}.`;
  }
  return errors;
}
