// What changed for the model between two versions of a tool file: only what the model sees (each operation's
// name, description and input schema, R-schema-three-things), compared and said in words. Pure, so the browser can use it too.
// Edit when the catalog gains something the model sees, or the History tab needs a new kind of change.
import type { CatalogFile, CatalogTool } from "@/server/host/protocol";

type JsonSchema = Record<string, unknown>;

export type SchemaChange =
  | { kind: "offered"; offered: boolean }
  | { kind: "operation-added"; operation: string }
  | { kind: "operation-removed"; operation: string }
  | { kind: "description"; operation: string; before: string; after: string }
  | { kind: "parameter-added"; operation: string; parameter: string; required: boolean; type: string }
  | { kind: "parameter-removed"; operation: string; parameter: string }
  | { kind: "parameter-type"; operation: string; parameter: string; before: string; after: string }
  | { kind: "parameter-schema"; operation: string; parameter: string }
  | { kind: "parameter-required"; operation: string; parameter: string; required: boolean }
  | { kind: "parameter-default"; operation: string; parameter: string; before?: unknown; after?: unknown }
  | { kind: "parameter-description"; operation: string; parameter: string; before: string; after: string }
  | { kind: "input-schema"; operation: string };

/** JSON with object keys sorted, so two schemas that differ only in key order compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

function asSchema(value: unknown): JsonSchema {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as JsonSchema) : {};
}

/** A parameter's type as a person reads it: "string", "array of integer", "one of "low", "high"", "string or null". */
export function typeLabel(schema: JsonSchema): string {
  if (Array.isArray(schema.anyOf)) return schema.anyOf.map((part) => typeLabel(asSchema(part))).join(" or ");
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(", ")}`;
  if (schema.type === "array") return schema.items ? `array of ${typeLabel(asSchema(schema.items))}` : "array";
  if (schema.type === "object" && schema.additionalProperties && typeof schema.additionalProperties === "object") {
    return `object of ${typeLabel(asSchema(schema.additionalProperties))}`;
  }
  return typeof schema.type === "string" ? schema.type : "any value";
}

/** The part of a parameter's schema that is its type: everything but its description and default. */
function shape(schema: JsonSchema): JsonSchema {
  return without(schema, ["description", "default"]);
}

function without(schema: JsonSchema, keys: string[]): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}

function parametersOf(tool: CatalogTool) {
  const schema = tool.input_schema;
  const properties = asSchema(schema.properties) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return { properties, required, rest: without(schema, ["properties", "required"]) };
}

function diffParameter(operation: string, parameter: string, before: JsonSchema, after: JsonSchema, wasRequired: boolean, isRequired: boolean): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const at = { operation, parameter };
  if (!same(shape(before), shape(after))) {
    const [was, now] = [typeLabel(before), typeLabel(after)];
    changes.push(was === now ? { kind: "parameter-schema", ...at } : { kind: "parameter-type", ...at, before: was, after: now });
  }
  if (wasRequired !== isRequired) changes.push({ kind: "parameter-required", ...at, required: isRequired });
  if (!same(before.default, after.default) || "default" in before !== "default" in after) {
    const change: SchemaChange = { kind: "parameter-default", ...at };
    if ("default" in before) change.before = before.default;
    if ("default" in after) change.after = after.default;
    changes.push(change);
  }
  const [said, says] = [String(before.description ?? ""), String(after.description ?? "")];
  if (said !== says) changes.push({ kind: "parameter-description", ...at, before: said, after: says });
  return changes;
}

function diffOperation(before: CatalogTool, after: CatalogTool): SchemaChange[] {
  const operation = after.name;
  const changes: SchemaChange[] = [];
  if (before.description !== after.description) {
    changes.push({ kind: "description", operation, before: before.description, after: after.description });
  }
  const was = parametersOf(before);
  const now = parametersOf(after);
  for (const [name, schema] of Object.entries(now.properties)) {
    if (!(name in was.properties)) {
      changes.push({ kind: "parameter-added", operation, parameter: name, required: now.required.has(name), type: typeLabel(asSchema(schema)) });
    } else {
      changes.push(...diffParameter(operation, name, asSchema(was.properties[name]), asSchema(schema), was.required.has(name), now.required.has(name)));
    }
  }
  for (const name of Object.keys(was.properties)) {
    if (!(name in now.properties)) changes.push({ kind: "parameter-removed", operation, parameter: name });
  }
  if (!same(was.rest, now.rest)) changes.push({ kind: "input-schema", operation });
  return changes;
}

/**
 * What the model would see differently in `after` than in `before` (null: the file is absent from that version).
 * Operations are matched by name, the identity the model calls (R-name-title: a title can be reworded, a name never).
 */
export function diffSchemas(before: CatalogFile | null, after: CatalogFile | null): SchemaChange[] {
  const changes: SchemaChange[] = [];
  if (before && after && before.offered !== after.offered) changes.push({ kind: "offered", offered: after.offered });
  const was = new Map((before?.tools ?? []).map((tool) => [tool.name, tool]));
  const now = new Map((after?.tools ?? []).map((tool) => [tool.name, tool]));
  for (const [name, tool] of now) {
    const old = was.get(name);
    if (old) changes.push(...diffOperation(old, tool));
    else changes.push({ kind: "operation-added", operation: name });
  }
  for (const name of was.keys()) {
    if (!now.has(name)) changes.push({ kind: "operation-removed", operation: name });
  }
  return changes;
}

const quote = (text: string) => (text ? `“${text}”` : "empty");

/** One change as a sentence for the History tab. */
export function describeChange(change: SchemaChange): string {
  switch (change.kind) {
    case "offered":
      return change.offered
        ? "The file's errors are fixed: the model is offered its operations again"
        : "The file has errors: the model is offered none of its operations";
    case "operation-added":
      return `Added operation ${change.operation}`;
    case "operation-removed":
      return `Removed operation ${change.operation}`;
    case "description":
      return `${change.operation}: description is now ${quote(change.after)} (was ${quote(change.before)})`;
    case "parameter-added":
      return `${change.operation}: added ${change.required ? "required" : "optional"} parameter ${change.parameter} (${change.type})`;
    case "parameter-removed":
      return `${change.operation}: removed parameter ${change.parameter}`;
    case "parameter-type":
      return `${change.operation}: parameter ${change.parameter} is now ${change.after} (was ${change.before})`;
    case "parameter-schema":
      return `${change.operation}: parameter ${change.parameter} has a changed schema (same type, other constraints)`;
    case "parameter-required":
      return `${change.operation}: parameter ${change.parameter} is now ${change.required ? "required" : "optional"}`;
    case "parameter-default":
      if (!("after" in change)) return `${change.operation}: parameter ${change.parameter} no longer has a default`;
      if (!("before" in change)) return `${change.operation}: parameter ${change.parameter} now defaults to ${JSON.stringify(change.after)}`;
      return `${change.operation}: parameter ${change.parameter} now defaults to ${JSON.stringify(change.after)} (was ${JSON.stringify(change.before)})`;
    case "parameter-description":
      return `${change.operation}: parameter ${change.parameter} is now described as ${quote(change.after)} (was ${quote(change.before)})`;
    case "input-schema":
      return `${change.operation}: its input schema changed beyond its parameters`;
  }
}
