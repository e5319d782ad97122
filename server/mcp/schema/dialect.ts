// One dialect out of the several MCP servers write: draft-04/07 forms turned into their 2020-12 equivalents,
// OpenAPI's `nullable` into a null type, keywords outside JSON Schema (`$schema`, `$id`, `$comment`, `x-...`)
// dropped, `oneOf` read as `anyOf`, `allOf` of plain objects merged, and a null branch of a union folded into
// `type`. Edit when a server is seen writing a form that is not handled here.
import { isSchema, mapSubschemas, typesOf, without, type Schema, type SubSchema } from "./walk";

/**
 * 2020-12's vocabulary, the dialect the output is written in: Anthropic documents its tool schemas as 2020-12,
 * OpenAI's documented subset is the same keywords, and the result is checked by Ajv's 2020-12 meta-schema.
 * Anything else (vendor `x-` keys, OpenAPI's `example` and `discriminator`, identifiers) means nothing to a model.
 */
const KEPT = new Set([
  "type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
  "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "items",
  "prefixItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems",
  "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "minLength", "maxLength", "pattern", "format",
  "contentEncoding", "contentMediaType", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "title", "description", "default", "examples", "deprecated",
]);

const ANNOTATIONS = new Set(["title", "description", "default", "examples", "deprecated"]);
const PRIMITIVES = new Set(["string", "number", "integer", "boolean"]);

/** The schema in 2020-12 form, with unions of null folded where providers read them best. */
export function toModern(node: SubSchema): SubSchema {
  if (typeof node === "boolean") return node;
  return foldNull(mergeAllOf(rewrite(mapSubschemas(node, (sub) => toModern(sub)))));
}

function rewrite(node: Schema): Schema {
  const out: Schema = {};
  // draft-07 tuples: `items` as a list and `additionalItems` for the rest are 2020-12's `prefixItems` and `items`.
  if (Array.isArray(node.items)) {
    out.prefixItems = node.items;
    if (node.additionalItems !== undefined) out.items = node.additionalItems;
  } else if (node.items !== undefined) {
    out.items = node.items;
  }
  // draft-07 `dependencies` holds both of 2020-12's: lists of names and schemas.
  const dependent: Record<"dependentRequired" | "dependentSchemas", Schema> = {
    dependentRequired: isSchema(node.dependentRequired) ? { ...node.dependentRequired } : {},
    dependentSchemas: isSchema(node.dependentSchemas) ? { ...node.dependentSchemas } : {},
  };
  if (isSchema(node.dependencies)) {
    for (const [key, value] of Object.entries(node.dependencies)) {
      dependent[Array.isArray(value) ? "dependentRequired" : "dependentSchemas"][key] = value;
    }
  }
  for (const [keyword, map] of Object.entries(dependent)) if (Object.keys(map).length > 0) out[keyword] = map;
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === "items" || !KEPT.has(keyword) || keyword in out) continue;
    out[keyword] = value;
  }
  // draft-04: a boolean exclusiveMinimum/Maximum qualified minimum/maximum.
  for (const [exclusive, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof out[exclusive] !== "boolean") continue;
    if (out[exclusive] && typeof out[bound] === "number") out[exclusive] = out[bound];
    else delete out[exclusive];
    if (typeof out[exclusive] === "number") delete out[bound];
  }
  // OpenAPI 3.0's `nullable: true` is a null type in JSON Schema.
  if (node.nullable === true) Object.assign(out, withNull(out));
  // "Exactly one" is the server's check to make; the decoders of strict modes offer only anyOf.
  if (Array.isArray(out.oneOf) && out.anyOf === undefined) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (out.type === undefined && out.anyOf === undefined && out.enum === undefined && out.const === undefined) {
    if (isSchema(out.properties) || out.additionalProperties !== undefined) out.type = "object";
    else if (out.items !== undefined || out.prefixItems !== undefined) out.type = "array";
  }
  // An object is kept an object even when it lists no properties; providers (and this module) read `properties`.
  if (typesOf(out).includes("object") && !isSchema(out.properties)) out.properties = {};
  return out;
}

/** `allOf` of one schema, or of objects that do not disagree, is the one schema they make together. */
function mergeAllOf(node: Schema): Schema {
  if (!Array.isArray(node.allOf)) return node;
  const { allOf, ...rest } = node;
  let merged: Schema = rest;
  for (const member of allOf as SubSchema[]) {
    if (member === true) continue;
    if (!isSchema(member)) return node;
    const next = mergeTwo(merged, member);
    if (!next) return node;
    merged = next;
  }
  return merged;
}

function mergeTwo(into: Schema, member: Schema): Schema | null {
  const out: Schema = { ...into };
  for (const [keyword, value] of Object.entries(member)) {
    if (!(keyword in out)) {
      out[keyword] = value;
    } else if (ANNOTATIONS.has(keyword)) {
      // The schema's own title and description win over a member's.
    } else if (keyword === "properties" && isSchema(out.properties) && isSchema(value)) {
      for (const key of Object.keys(value)) if (key in out.properties && !same(out.properties[key], value[key])) return null;
      out.properties = { ...out.properties, ...value };
    } else if (keyword === "required" && Array.isArray(out.required) && Array.isArray(value)) {
      out.required = [...new Set([...out.required, ...value])];
    } else if (!same(out[keyword], value)) {
      return null;
    }
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isNullBranch = (branch: unknown) =>
  isSchema(branch) && branch.type === "null" && Object.keys(branch).every((k) => k === "type" || ANNOTATIONS.has(k));

/** A schema that also accepts null: "null" added to its type, and to its enum when it has one. */
export function withNull(node: Schema): Schema {
  const types = typesOf(node);
  const out: Schema = { ...node };
  if (types.length > 0 && !types.includes("null")) out.type = [...types, "null"];
  if (out.const !== undefined) {
    out.enum = [out.const, null];
    delete out.const;
  }
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

/**
 * `anyOf: [{type: X}, {type: "null"}]` (pydantic's `X | None`) becomes `type: [X, "null"]` when X is a plain
 * scalar: the form OpenAI documents for a nullable field, and one Anthropic takes too. An object or array keeps
 * its `anyOf` with a bare `{type: "null"}` branch, which both read and which keeps its keywords apart.
 */
function foldNull(node: Schema): Schema {
  if (!Array.isArray(node.anyOf) || !node.anyOf.some(isNullBranch)) return node;
  const others = (node.anyOf as SubSchema[]).filter((branch) => !isNullBranch(branch));
  const outer = without(node, "anyOf");
  if (others.length === 0) return { ...outer, type: "null" };
  const scalar = (branch: SubSchema): branch is Schema =>
    isSchema(branch) && typeof branch.type === "string" && PRIMITIVES.has(branch.type) && branch.anyOf === undefined;
  if (others.length === 1 && scalar(others[0]!) && outer.type === undefined) {
    return withNull({ ...others[0], ...outer });
  }
  const bare = others.every((branch) => scalar(branch) && Object.keys(branch).every((k) => k === "type" || ANNOTATIONS.has(k)));
  if (bare && outer.type === undefined) {
    return { ...outer, type: [...new Set(others.map((branch) => (branch as Schema).type as string)), "null"] };
  }
  return { ...outer, anyOf: [...others, { type: "null" }] };
}
