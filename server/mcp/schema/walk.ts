// The places in a JSON Schema where another schema sits, for both dialects MCP servers write (draft-07 and
// 2020-12), and one immutable map over them that every normalisation pass uses. Edit when a keyword that holds
// schemas is added to a dialect.

/** A schema object; a subschema may also be `true` or `false`. */
export type Schema = { [keyword: string]: unknown };
export type SubSchema = Schema | boolean;

/** Where a subschema sits under its parent: the keyword, and the property name or index below it. */
export type Step = { keyword: string; key?: string };

/** A schema that could not be normalised, and the sentence saying why (the sentence is the answer). */
export class SchemaProblem extends Error {}

const MAPS = ["properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"];
const LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SINGLE = [
  "additionalProperties",
  "additionalItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentSchema",
];

export const isSchema = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);
const isSub = (value: unknown): value is SubSchema => typeof value === "boolean" || isSchema(value);

/**
 * A copy of `node` with every direct subschema replaced by `fn(sub, step)`. Values that are not schemas where a
 * schema belongs (a draft-07 `dependencies` entry that is a list of names, say) are kept as they are.
 */
export function mapSubschemas(node: Schema, fn: (sub: SubSchema, step: Step) => SubSchema): Schema {
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (MAPS.includes(keyword) && isSchema(value)) {
      const mapped: Schema = {};
      for (const [key, sub] of Object.entries(value)) mapped[key] = isSub(sub) ? fn(sub, { keyword, key }) : sub;
      out[keyword] = mapped;
    } else if ((LISTS.includes(keyword) || keyword === "items") && Array.isArray(value)) {
      out[keyword] = value.map((sub, index) => (isSub(sub) ? fn(sub, { keyword, key: String(index) }) : sub));
    } else if ((SINGLE.includes(keyword) || keyword === "items") && isSub(value)) {
      out[keyword] = fn(value, { keyword });
    } else {
      out[keyword] = value;
    }
  }
  return out;
}

/** "options.env" from the steps down to a schema: property names only, the way a person names an argument. */
export function describePath(steps: readonly Step[]): string {
  const names = steps.filter((step) => step.keyword === "properties" && step.key !== undefined).map((step) => step.key);
  return names.join(".");
}

/** "The property options.env" or "The input", to open a sentence about the schema at `steps`. */
export function subject(steps: readonly Step[]): string {
  const path = describePath(steps);
  return path ? `The property ${path}` : "The input";
}

/** The schema's `type` as a list (empty when it has none). */
export function typesOf(node: Schema): string[] {
  const type = node.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  return [];
}

/** Adds a note to the schema's description, where a keyword the provider refuses is kept in words. */
export function withNote(node: Schema, note: string): Schema {
  const description = typeof node.description === "string" && node.description.trim() ? node.description.trimEnd() : "";
  return { ...node, description: description ? `${description} (${note})` : `(${note})` };
}

/** A copy of the schema without the given keywords. */
export function without(node: Schema, ...keywords: string[]): Schema {
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(node)) if (!keywords.includes(keyword)) out[keyword] = value;
  return out;
}
