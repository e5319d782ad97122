// What each provider takes, as data: the string formats it accepts, the keywords it refuses and which of those
// can live on as words in the description, and what its strict mode demands of objects. Edit when a provider
// changes what it accepts.

export type Provider = "openai" | "anthropic" | "openai-compatible";
export type NormaliseOptions = { provider: Provider; strict?: boolean };

export type Profile = {
  /** String formats kept as keywords; null keeps every format. */
  formats: ReadonlySet<string> | null;
  /** Keywords the provider refuses that only narrow a value: moved into the description, in words. */
  notes: readonly string[];
  /** Keywords it refuses that change a schema's shape: the tool cannot be offered in this mode. */
  refused: readonly string[];
  /** Strict decoding: every object closed with `additionalProperties: false` and every value typed. */
  strict: boolean;
  /** OpenAI's strict mode also wants every property required; one that may be left out becomes nullable. */
  allRequired: boolean;
  /** `minItems` above this goes to the description (Anthropic's strict mode takes only 0 and 1). */
  maxMinItems: number | null;
};

/** The formats OpenAI's strict mode lists; it refuses others, `uri` among them. */
const OPENAI_STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
/** Anthropic's strict mode lists the same and `uri`. */
const ANTHROPIC_STRICT_FORMATS = new Set([...OPENAI_STRICT_FORMATS, "uri"]);
/**
 * Servers behind the OpenAI-compatible API (local engines, other vendors' gateways) turn the schema into a grammar
 * or into their own schema type, and some refuse any string format they do not know; date-time is the one that
 * all of them read.
 */
const COMPATIBLE_FORMATS = new Set(["date-time"]);

/** What no strict decoder can express: a shape that depends on the value, or keys matched by a pattern. */
const STRUCTURAL = ["not", "if", "then", "else", "dependentSchemas", "patternProperties", "unevaluatedProperties", "unevaluatedItems"];
const COLLECTION_NOTES = ["uniqueItems", "contains", "minContains", "maxContains", "minProperties", "maxProperties", "propertyNames", "dependentRequired"];

export function profileFor({ provider, strict = false }: NormaliseOptions): Profile {
  const compatible = provider === "openai-compatible";
  if (!strict) {
    return { formats: compatible ? COMPATIBLE_FORMATS : null, notes: [], refused: [], strict: false, allRequired: false, maxMinItems: null };
  }
  if (provider === "anthropic") {
    return {
      formats: ANTHROPIC_STRICT_FORMATS,
      // Anthropic's strict mode refuses numeric bounds and string lengths; the server still checks them.
      notes: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "maxItems", ...COLLECTION_NOTES],
      refused: STRUCTURAL,
      strict: true,
      allRequired: false,
      maxMinItems: 1,
    };
  }
  return {
    formats: compatible ? COMPATIBLE_FORMATS : OPENAI_STRICT_FORMATS,
    // OpenAI's strict mode takes numeric bounds and item counts, but not string lengths.
    notes: ["minLength", "maxLength", ...COLLECTION_NOTES],
    refused: [...STRUCTURAL, "allOf"],
    strict: true,
    allRequired: true,
    maxMinItems: null,
  };
}
