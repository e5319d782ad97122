// Draft-07, draft-04 and OpenAPI forms read as 2020-12, what is not JSON Schema dropped, and the top of the schema
// made a single object (R-mcp-schema-normalise). Each case is the exact schema a model is given, or the sentence.
import { describe, expect, it } from "vitest";
import { normaliseToolSchema, type Normalised } from "./normalise";

type Case = { name: string; input: unknown; expected: Normalised | { problem: string } };

const CASES: Case[] = [
  {
    name: "draft-07 tuple items and additionalItems become prefixItems and items",
    input: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { point: { type: "array", items: [{ type: "number" }, { type: "number" }], additionalItems: false } },
      required: ["point"],
    },
    expected: {
      schema: { type: "object", properties: { point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } }, required: ["point"] },
    },
  },
  {
    name: "draft-07 dependencies split into dependentRequired and dependentSchemas",
    input: {
      type: "object",
      properties: { card: { type: "string" }, billing: { type: "string" } },
      dependencies: { card: ["billing"], billing: { properties: { card: { minLength: 12 } } } },
    },
    expected: {
      schema: {
        type: "object",
        properties: { card: { type: "string" }, billing: { type: "string" } },
        dependentRequired: { card: ["billing"] },
        dependentSchemas: { billing: { type: "object", properties: { card: { minLength: 12 } } } },
        required: [],
      },
    },
  },
  {
    name: "a 2020-12 schema is accepted as it is, without its $schema and $comment",
    input: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $comment: "generated",
      type: "object",
      properties: { range: { type: "array", prefixItems: [{ type: "integer" }, { type: "integer" }], items: false } },
      dependentRequired: { range: ["unit"] },
      required: ["range"],
    },
    expected: {
      schema: {
        type: "object",
        properties: { range: { type: "array", prefixItems: [{ type: "integer" }, { type: "integer" }], items: false } },
        dependentRequired: { range: ["unit"] },
        required: ["range"],
      },
    },
  },
  {
    name: "draft-04's boolean exclusiveMinimum qualifies minimum",
    input: { type: "object", properties: { ratio: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false } } },
    expected: { schema: { type: "object", properties: { ratio: { type: "number", exclusiveMinimum: 0, maximum: 1 } }, required: [] } },
  },
  {
    name: "OpenAPI's nullable and vendor x- keywords are read as JSON Schema and dropped",
    input: {
      type: "object",
      properties: { tag: { type: "string", enum: ["a", "b"], nullable: true, "x-order": 2, example: "a" } },
      required: ["tag"],
    },
    expected: { schema: { type: "object", properties: { tag: { type: ["string", "null"], enum: ["a", "b", null] } }, required: ["tag"] } },
  },
  {
    name: "pydantic v1's allOf around one $ref merges into the property",
    input: {
      type: "object",
      properties: { color: { allOf: [{ $ref: "#/definitions/Color" }], description: "The pen's color" } },
      definitions: { Color: { title: "Color", enum: ["red", "blue"], type: "string" } },
    },
    expected: {
      schema: { type: "object", properties: { color: { title: "Color", enum: ["red", "blue"], type: "string", description: "The pen's color" } }, required: [] },
    },
  },
  {
    name: "allOf of objects that do not disagree merges their properties and required lists",
    input: {
      allOf: [
        { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
      ],
    },
    expected: { schema: { type: "object", properties: { id: { type: "string" }, note: { type: "string" } }, required: ["id", "note"] } },
  },
  {
    name: "oneOf is read as anyOf, and a null branch among several scalars joins the type list",
    input: { type: "object", properties: { size: { oneOf: [{ type: "integer" }, { type: "string" }, { type: "null" }] } }, required: ["size"] },
    expected: { schema: { type: "object", properties: { size: { type: ["integer", "string", "null"] } }, required: ["size"] } },
  },
  {
    name: "a top-level anyOf that only lists required sets is kept in words",
    input: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } }, anyOf: [{ required: ["id"] }, { required: ["name"] }] },
    expected: {
      schema: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } }, description: "(give at least one of: id; name)", required: [] },
    },
  },
  {
    name: "a top-level union of different objects is refused",
    input: { oneOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "string" } } }] },
    expected: {
      problem: "The input is one of several shapes (anyOf at its top), and providers take only a single object there, so the tool cannot be offered.",
    },
  },
  {
    name: "a schema without a type but with properties is an object",
    input: { properties: { q: { type: "string" } } },
    expected: { schema: { type: "object", properties: { q: { type: "string" } }, required: [] } },
  },
  {
    name: "an input schema that is not a JSON object is refused",
    input: ["type", "object"],
    expected: { problem: "The input schema is not a JSON object, so there is nothing to tell a model about the tool's arguments." },
  },
  {
    name: "a misspelt type is refused by Ajv, naming the place",
    input: { type: "object", properties: { a: { type: "strng" } } },
    expected: { problem: "The schema is not valid JSON Schema at /properties/a/type: it must be equal to one of the allowed values." },
  },
  {
    name: "a required that is not a list is refused, not replaced",
    input: { type: "object", properties: { a: { type: "string" } }, required: "a" },
    expected: { problem: "The schema is not valid JSON Schema at /required: it must be array." },
  },
];

describe("normaliseToolSchema reads every dialect as 2020-12", () => {
  it.each(CASES)("$name", ({ input, expected }) => {
    expect(normaliseToolSchema(input, { provider: "anthropic" })).toStrictEqual(expected);
  });

  it("takes an empty schema, or true, as a tool without arguments", () => {
    const none = { schema: { type: "object", properties: {}, required: [] } };
    expect(normaliseToolSchema({}, { provider: "openai" })).toStrictEqual(none);
    expect(normaliseToolSchema(true, { provider: "openai" })).toStrictEqual(none);
  });
});
