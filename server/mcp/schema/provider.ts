// The schema fitted to one provider's profile (profile.ts): formats and keywords it refuses moved into the
// description, and for strict mode every object closed, every value typed and, for OpenAI, every property
// required. Edit with profile.ts when a provider's rules change.
import { withNull } from "./dialect";
import type { Profile, Provider } from "./profile";
import { SchemaProblem, isSchema, mapSubschemas, subject, typesOf, withNote, without, type Schema, type Step, type SubSchema } from "./walk";

const PROVIDER_NAMES: Record<Provider, string> = { openai: "OpenAI", anthropic: "Anthropic", "openai-compatible": "the OpenAI-compatible server" };
const PRIMITIVES = new Set(["string", "number", "integer", "boolean", "null"]);

export type Fitted = { schema: Schema; nullMeansOmitted: string[] };

export function fitToProvider(schema: Schema, profile: Profile, provider: Provider): Fitted {
  const nullMeansOmitted: string[] = [];
  const steps: Step[] = [];

  const visit = (node: SubSchema): SubSchema => {
    if (typeof node === "boolean") {
      // `false` closes (no more items, no other keys); `true` is "anything", which a strict decoder cannot send.
      if (node && profile.strict && steps.at(-1)?.keyword !== "additionalProperties") {
        throw new SchemaProblem(`${subject(steps)} accepts any value, and strict mode needs a type for every value; offer the tool without strict mode.`);
      }
      return node;
    }
    // Before the parts: a refused keyword is the reason, not whatever its parts lack.
    const refused = profile.refused.find((keyword) => keyword in node);
    if (refused) {
      throw new SchemaProblem(
        `${subject(steps)} uses ${refused}, which ${PROVIDER_NAMES[provider]}'s strict mode cannot express; offer the tool without strict mode.`,
      );
    }
    const inner = mapSubschemas(node, (sub, step) => {
      steps.push(step);
      try {
        return visit(sub);
      } finally {
        steps.pop();
      }
    });
    const noted = notes(inner, profile);
    if (!profile.strict) return optionalWithoutNull(noted);
    return strictNode(noted);
  };

  const strictNode = (node: Schema): Schema => {
    const types = typesOf(node);
    if (types.length === 0 && node.anyOf === undefined && node.allOf === undefined && node.enum === undefined && node.const === undefined) {
      throw new SchemaProblem(`${subject(steps)} has no type, and strict mode needs a type for every value; offer the tool without strict mode.`);
    }
    if (!types.includes("object")) return node;
    const properties = isSchema(node.properties) ? node.properties : {};
    const open = node.additionalProperties !== undefined && node.additionalProperties !== false;
    if (open || (Object.keys(properties).length === 0 && steps.length > 0 && node.additionalProperties === undefined)) {
      throw new SchemaProblem(
        `${subject(steps)} is an object with keys of its own choosing, and strict mode can send only the keys a schema lists; offer the tool without strict mode.`,
      );
    }
    const out: Schema = { ...node, properties, additionalProperties: false };
    if (!profile.allRequired) return optionalWithoutNull(out);
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const fitted: Schema = {};
    for (const [key, sub] of Object.entries(properties)) {
      if (required.has(key) || !isSchema(sub)) {
        fitted[key] = sub;
        continue;
      }
      // OpenAI's strict mode has no optional property: the model sends null instead, and the call leaves it out.
      fitted[key] = nullable(sub);
      nullMeansOmitted.push(argumentPath([...steps, { keyword: "properties", key }]));
    }
    return { ...out, properties: fitted, required: Object.keys(properties) };
  };

  const fitted = visit(schema);
  return { schema: fitted as Schema, nullMeansOmitted };
}

/** Keywords the profile refuses but that only narrow a value, kept in words at the end of the description. */
function notes(node: Schema, profile: Profile): Schema {
  const moved: string[] = [];
  const out: Schema = { ...node };
  const move = (keyword: string) => {
    const value = out[keyword];
    moved.push(`${keyword}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
    delete out[keyword];
  };
  if (typeof out.format === "string" && profile.formats && !profile.formats.has(out.format)) move("format");
  // A pattern JavaScript cannot read (Python's `(?P<name>...)`, say) would fail the check below and most decoders.
  if (typeof out.pattern === "string" && !readable(out.pattern)) move("pattern");
  for (const keyword of profile.notes) if (keyword in out) move(keyword);
  if (profile.maxMinItems !== null && typeof out.minItems === "number" && out.minItems > profile.maxMinItems) move("minItems");
  return moved.length > 0 ? withNote(out, moved.join("; ")) : out;
}

function readable(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * Outside OpenAI's strict mode a property that may be left out does not also offer null: leaving it out already
 * says "none" (R-schema-optional), and a server that takes `X | None` takes its absence too.
 */
function optionalWithoutNull(node: Schema): Schema {
  if (!isSchema(node.properties)) return node;
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const properties: Schema = {};
  for (const [key, sub] of Object.entries(node.properties)) properties[key] = required.has(key) || !isSchema(sub) ? sub : withoutNull(sub);
  return { ...node, properties };
}

function withoutNull(node: Schema): Schema {
  const out: Schema = { ...node };
  if (out.default === null) delete out.default;
  const types = typesOf(out);
  if (types.includes("null") && types.length > 1) {
    const rest = types.filter((t) => t !== "null");
    out.type = rest.length === 1 ? rest[0] : rest;
    if (Array.isArray(out.enum)) out.enum = out.enum.filter((value) => value !== null);
  }
  if (Array.isArray(out.anyOf)) {
    const branches = out.anyOf.filter((branch) => !(isSchema(branch) && branch.type === "null"));
    if (branches.length === out.anyOf.length || branches.length === 0) return out;
    const outer = without(out, "anyOf");
    if (branches.length === 1 && isSchema(branches[0]) && outer.type === undefined) return { ...branches[0], ...outer };
    return { ...outer, anyOf: branches };
  }
  return out;
}

/** The schema also accepting null, in the form dialect.ts gives a nullable value; a null default goes. */
function nullable(node: Schema): Schema {
  const { default: fallback, ...rest } = node;
  const base = fallback === null || fallback === undefined ? rest : node;
  const types = typesOf(base);
  if (types.includes("null")) return base;
  if (types.length > 0 && types.every((t) => PRIMITIVES.has(t))) return withNull(base);
  if (Array.isArray(base.anyOf)) return { ...base, anyOf: [...base.anyOf, { type: "null" }] };
  const { title, description, ...shape } = base;
  const annotations: Schema = {};
  if (title !== undefined) annotations.title = title;
  if (description !== undefined) annotations.description = description;
  return { ...annotations, anyOf: [shape, { type: "null" }] };
}

// Where a property sits in the arguments, as a JSON Pointer with `*` for any item of an array ("/edits/*/note").
function argumentPath(steps: readonly Step[]): string {
  let path = "";
  for (const step of steps) {
    if (step.keyword === "properties") path += `/${step.key!.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    else if (step.keyword === "items") path += "/*";
    else if (step.keyword === "prefixItems") path += `/${step.key}`;
  }
  return path;
}
