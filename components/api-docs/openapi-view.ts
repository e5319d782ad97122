// Reading an OpenAPI 3.1 document for the reference page: its operations in order, a schema's fields as rows, a
// type in words, and a curl line a reader can paste. Pure, over the document alone. Edit when the page shows more.
import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, SchemaObject } from "openapi3-ts/oas31";

export type Doc = OpenAPIObject;
export type Schema = SchemaObject | ReferenceObject;

export type Op = { id: string; method: string; path: string; op: OperationObject; tag: string; scopes: string[] };

export function operationsOf(doc: Doc): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ["get", "post", "put", "patch", "delete"] as const) {
      const op = item[method];
      if (!op) continue;
      const scopes = (op as Record<string, unknown>)["x-quiver-scopes"];
      out.push({ id: op.operationId ?? `${method}-${path}`, method, path, op, tag: op.tags?.[0] ?? "API", scopes: Array.isArray(scopes) ? scopes.map(String) : [] });
    }
  }
  return out;
}

const isRef = (schema: Schema): schema is ReferenceObject => "$ref" in schema;

/** The component a `$ref` names: "Run" for #/components/schemas/Run. */
export const refName = (ref: string) => ref.split("/").at(-1)!;

export function resolve(doc: Doc, schema: Schema | undefined): SchemaObject | undefined {
  if (!schema) return undefined;
  if (!isRef(schema)) return schema;
  const found = doc.components?.schemas?.[refName(schema.$ref)];
  return found && !isRef(found) ? found : undefined;
}

/** A type as a reader says it: "text", "list of Call", one of "a" | "b", "text or null". */
export function typeOf(schema: Schema | undefined): { words: string; ref?: string } {
  if (!schema) return { words: "anything" };
  if (isRef(schema)) return { words: refName(schema.$ref), ref: refName(schema.$ref) };
  if (schema.enum) return { words: schema.enum.map((v) => JSON.stringify(v)).join(" | ") };
  const types = [schema.type ?? []].flat();
  const nullable = types.includes("null");
  const main = types.filter((t) => t !== "null");
  let words: string;
  let ref: string | undefined;
  if (main[0] === "array") {
    const inner = typeOf(schema.items as Schema | undefined);
    words = `list of ${inner.words}`;
    ref = inner.ref;
  } else {
    const names: Record<string, string> = { string: "text", number: "number", integer: "whole number", boolean: "true or false", object: "object" };
    words = main.map((t) => names[t] ?? t).join(" or ") || "anything";
    if (schema.format === "uuid") words = "id (UUID)";
  }
  return { words: nullable ? `${words} or null` : words, ref };
}

export type Field = { name: string; type: { words: string; ref?: string }; required: boolean; description: string };

/** An object schema's fields, an inline object's own fields following it dotted (links.run), two levels at most. */
export function fieldsOf(doc: Doc, schema: Schema | undefined, prefix = "", depth = 0): Field[] {
  const object = resolve(doc, schema);
  if (!object?.properties) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).flatMap(([name, property]) => {
    const row: Field = { name: prefix + name, type: typeOf(property), required: required.has(name), description: isRef(property) ? "" : (property.description ?? "") };
    const nested = !isRef(property) && property.properties && depth < 1 ? fieldsOf(doc, property, `${prefix}${name}.`, depth + 1) : [];
    return [row, ...nested];
  });
}

/** The path with each parameter's example in its place. */
export function examplePath(path: string, parameters: OperationObject["parameters"]): string {
  return path.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const param = (parameters ?? []).find((p): p is ParameterObject => !("$ref" in p) && p.in === "path" && p.name === name);
    const value = param?.schema && !isRef(param.schema) ? param.schema.example : undefined;
    return value === undefined ? whole : String(value);
  });
}

/** A curl line for the operation, the key as $QUIVER_KEY, the body its documented example. */
export function curlOf(server: string, { method, path, op }: Op): string {
  const body = op.requestBody && !("$ref" in op.requestBody) ? op.requestBody.content["application/json"]?.example : undefined;
  const stream = Object.values(op.responses ?? {}).some((r) => !("$ref" in r) && r.content?.["text/event-stream"]);
  const secured = (op.security ?? [{}]).length > 0;
  const lines = [`curl -sS${stream ? " -N" : ""}${method === "post" && body === undefined ? " -X POST" : ""} "${server}${examplePath(path, op.parameters)}"`];
  if (secured) lines.push(`-H "Authorization: Bearer $QUIVER_KEY"`);
  if (body !== undefined) lines.push(`-H "Content-Type: application/json"`, `-d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`);
  return lines.join(" \\\n  ");
}
