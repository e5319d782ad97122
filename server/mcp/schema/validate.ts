// The last check of a normalised schema: valid JSON Schema by Ajv's 2020-12 meta-schema, the dialect the
// normalisation writes (draft-07's Ajv would read `prefixItems` and `dependentRequired` as unknown words).
import Ajv2020 from "ajv/dist/2020";
import { SchemaProblem, type Schema } from "./walk";

// Only the schema is checked, never data, so formats need no validators; one instance serves every call.
const ajv = new Ajv2020({ strict: false, validateFormats: false });

/**
 * Refuses a schema the meta-schema rejects (a misspelt type, `required` that is not a list), naming the first
 * place. Patterns were already checked as JavaScript regular expressions while fitting to the provider, so the
 * schema is not compiled: compiling 200 tools' schemas would cost far more than the rest of the normalisation.
 */
export function checkValid(schema: Schema): void {
  if (ajv.validateSchema(schema)) return;
  const first = ajv.errors?.[0];
  const where = first?.instancePath ? `at ${first.instancePath}` : "at its top";
  throw new SchemaProblem(`The schema is not valid JSON Schema ${where}: it ${first?.message ?? "breaks the meta-schema"}.`);
}
