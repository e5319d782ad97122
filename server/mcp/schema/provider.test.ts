// What each provider profile does to a schema (R-mcp-schema-normalise): formats and narrowing keywords a provider
// refuses kept in words, and the shapes a strict mode cannot express refused with a sentence.
import { describe, expect, it } from "vitest";
import { omitNullsMeaningOmitted } from "./arguments";
import { normaliseToolSchema, type Normalised, type NormaliseOptions } from "./normalise";

type Case = { name: string; input: unknown; options: NormaliseOptions; expected: Normalised | { problem: string } };

const env = { type: "object", properties: { env: { type: "object", additionalProperties: { type: "string" } } }, required: ["env"] };
const tags = { type: "object", properties: { tags: { type: "array", items: { type: "string", maxLength: 20 }, minItems: 2, uniqueItems: true } }, required: ["tags"] };
const when = { type: "object", properties: { at: { type: "string", format: "date-time" }, site: { type: "string", format: "uri" } }, required: ["at", "site"] };

const CASES: Case[] = [
  {
    name: "a map of free keys is kept without strict mode",
    input: env,
    options: { provider: "openai" },
    expected: { schema: { ...env, properties: { env: { ...env.properties.env, properties: {} } } } },
  },
  {
    name: "a map of free keys cannot be strict",
    input: env,
    options: { provider: "anthropic", strict: true },
    expected: {
      problem:
        "The property env is an object with keys of its own choosing, and strict mode can send only the keys a schema lists; offer the tool without strict mode.",
    },
  },
  {
    name: "Anthropic's strict mode keeps uniqueness, lengths and minItems above 1 in words",
    input: tags,
    options: { provider: "anthropic", strict: true },
    expected: {
      schema: {
        type: "object",
        properties: { tags: { type: "array", items: { type: "string", description: "(maxLength: 20)" }, description: "(uniqueItems: true; minItems: 2)" } },
        required: ["tags"],
        additionalProperties: false,
      },
    },
  },
  {
    name: "OpenAI's strict mode keeps minItems but not string lengths",
    input: tags,
    options: { provider: "openai", strict: true },
    expected: {
      schema: {
        type: "object",
        properties: { tags: { type: "array", items: { type: "string", description: "(maxLength: 20)" }, minItems: 2, description: "(uniqueItems: true)" } },
        required: ["tags"],
        additionalProperties: false,
      },
    },
  },
  {
    name: "OpenAI's strict mode keeps date-time and moves uri to the description; Anthropic's keeps both",
    input: when,
    options: { provider: "openai", strict: true },
    expected: {
      schema: { ...when, properties: { at: when.properties.at, site: { type: "string", description: "(format: uri)" } }, additionalProperties: false },
    },
  },
  {
    name: "Anthropic's strict mode keeps format uri",
    input: when,
    options: { provider: "anthropic", strict: true },
    expected: { schema: { ...when, additionalProperties: false } },
  },
  {
    name: "a Python-only pattern is kept in words for every provider",
    input: { type: "object", properties: { month: { type: "string", pattern: "^(?P<year>\\d{4})-(?P<month>\\d{2})$" } }, required: ["month"] },
    options: { provider: "openai" },
    expected: {
      schema: {
        type: "object",
        properties: { month: { type: "string", description: "(pattern: ^(?P<year>\\d{4})-(?P<month>\\d{2})$)" } },
        required: ["month"],
      },
    },
  },
  {
    name: "a shape chosen by if/then cannot be strict",
    input: { type: "object", properties: { kind: { type: "string" } }, if: { properties: { kind: { const: "a" } } }, then: { required: ["kind"] } },
    options: { provider: "openai", strict: true },
    expected: { problem: "The input uses if, which OpenAI's strict mode cannot express; offer the tool without strict mode." },
  },
  {
    name: "an allOf that cannot be merged is refused by OpenAI's strict mode",
    input: { type: "object", properties: { n: { allOf: [{ type: "integer" }, { type: "number", multipleOf: 2 }] } }, required: ["n"] },
    options: { provider: "openai-compatible", strict: true },
    expected: { problem: "The property n uses allOf, which the OpenAI-compatible server's strict mode cannot express; offer the tool without strict mode." },
  },
  {
    name: "a value with no type cannot be strict",
    input: { type: "object", properties: { value: { description: "Anything" } }, required: ["value"] },
    options: { provider: "openai", strict: true },
    expected: { problem: "The property value has no type, and strict mode needs a type for every value; offer the tool without strict mode." },
  },
  {
    name: "array items of any kind (items: true) cannot be strict",
    input: { type: "object", properties: { list: { type: "array", items: true } }, required: ["list"] },
    options: { provider: "anthropic", strict: true },
    expected: { problem: "The property list accepts any value, and strict mode needs a type for every value; offer the tool without strict mode." },
  },
];

describe("normaliseToolSchema fits each provider's profile", () => {
  it.each(CASES)("$name", ({ input, options, expected }) => {
    expect(normaliseToolSchema(input, options)).toStrictEqual(expected);
  });
});

describe("omitNullsMeaningOmitted", () => {
  it("drops the nulls OpenAI's strict mode sent for left-out properties, in objects and in every array item", () => {
    const args = { path: "a.txt", head: null, edits: [{ oldText: "x", note: null }, { oldText: "y", note: "kept" }], other: null };
    expect(omitNullsMeaningOmitted(args, ["/head", "/edits/*/note", "/missing/deeper"])).toStrictEqual({
      path: "a.txt",
      edits: [{ oldText: "x" }, { oldText: "y", note: "kept" }],
      other: null,
    });
  });

  it("leaves a value that is not null, and the arguments it was given, as they were", () => {
    const args = { head: 3, nested: { note: null } };
    expect(omitNullsMeaningOmitted(args, ["/head", "/nested/note"])).toStrictEqual({ head: 3, nested: {} });
    expect(args).toStrictEqual({ head: 3, nested: { note: null } });
  });
});
