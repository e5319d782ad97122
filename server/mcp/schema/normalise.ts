// An MCP tool's input schema made into what a provider takes, before any model (or the builder's preview) sees
// it (R-mcp-schema-normalise): references written out, one dialect, nulls folded, an object at the top, fitted
// to the provider's profile and checked by Ajv. Pure: no I/O, the same answer for the same schema.
import { toModern } from "./dialect";
import { profileFor, type NormaliseOptions } from "./profile";
import { fitToProvider } from "./provider";
import { inlineRefs } from "./refs";
import { checkValid } from "./validate";
import { SchemaProblem, isSchema, typesOf, withNote, without, type Schema } from "./walk";

export type { NormaliseOptions, Provider } from "./profile";
export type { Schema } from "./walk";

export type Normalised = {
  schema: Schema;
  /**
   * Argument paths (JSON Pointers, `*` for any array item) where OpenAI's strict mode made a property that may be
   * left out required-but-nullable: a null there means "left out", and the call must drop it before the server
   * sees it. Absent when there are none.
   */
  nullMeansOmitted?: string[];
};

/** The normalised schema, or the one sentence saying why the tool cannot be offered (R-mcp-schema-cycle). */
export function normaliseToolSchema(inputSchema: unknown, options: NormaliseOptions): Normalised | { problem: string } {
  try {
    if (inputSchema !== true && !isSchema(inputSchema)) {
      throw new SchemaProblem("The input schema is not a JSON object, so there is nothing to tell a model about the tool's arguments.");
    }
    const inlined = inlineRefs(isSchema(inputSchema) ? inputSchema : {});
    const modern = toModern(inlined);
    const top = topLevelObject(typeof modern === "boolean" ? {} : modern);
    const { schema, nullMeansOmitted } = fitToProvider(top, profileFor(options), options.provider);
    checkValid(schema);
    return nullMeansOmitted.length > 0 ? { schema, nullMeansOmitted } : { schema };
  } catch (error) {
    if (error instanceof SchemaProblem) return { problem: error.message };
    throw error;
  }
}

/**
 * Providers take a single object at the top (Anthropic refuses anyOf, oneOf and allOf there), and MCP sends a
 * tool's arguments as an object, so a schema of another type could never be called: refused, not wrapped.
 * The one union kept, in words, is a list of alternative `required` sets over one object's properties.
 */
function topLevelObject(node: Schema): Schema {
  const types = typesOf(node);
  if (types.length > 0 && !types.includes("object")) {
    throw new SchemaProblem(
      `The input schema is of type ${types.join(" or ")}, not an object; MCP sends a tool's arguments as an object, so no model could call this tool.`,
    );
  }
  let out: Schema = { ...node, type: "object" };
  if (Array.isArray(out.anyOf) && out.anyOf.every(requiredOnly)) {
    const sets = (out.anyOf as Schema[]).map((branch) => (branch.required as string[]).join(" and "));
    out = withNote(without(out, "anyOf"), `give at least one of: ${sets.join("; ")}`);
  }
  for (const keyword of ["anyOf", "allOf"]) {
    if (keyword in out) {
      throw new SchemaProblem(
        `The input is one of several shapes (${keyword} at its top), and providers take only a single object there, so the tool cannot be offered.`,
      );
    }
  }
  return { ...out, properties: out.properties ?? {}, required: out.required ?? [] };
}

const requiredOnly = (branch: unknown) =>
  isSchema(branch) && Array.isArray(branch.required) && Object.keys(branch).every((k) => k === "required" || k === "description" || k === "title");
