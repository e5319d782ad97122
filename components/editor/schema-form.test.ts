import { describe, expect, it } from "vitest";
import { fieldsOf, initialValues, schemaErrors, toArgs } from "./schema-form";

const schema = {
  type: "object",
  properties: {
    subject: { type: "string", description: "Name of the note." },
    count: { type: "integer", default: 3 },
    ratio: { type: "number" },
    loud: { type: "boolean", default: false },
    mode: { enum: ["fast", "slow"], type: "string", default: "fast" },
    tags: { type: "array", items: { type: "string" } },
    meta: { type: "object" },
  },
  required: ["subject", "tags"],
};

describe("the Try it form generated from an input schema", () => {
  const fields = fieldsOf(schema);

  it("has one field per parameter, in order, with its kind and whether it is required", () => {
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["subject", "string", true],
      ["count", "integer", false],
      ["ratio", "number", false],
      ["loud", "boolean", false],
      ["mode", "enum", false],
      ["tags", "json", true],
      ["meta", "json", false],
    ]);
    expect(fields.find((f) => f.name === "mode")?.options).toEqual(["fast", "slow"]);
  });

  it("fills the defaults", () => {
    expect(initialValues(fields)).toMatchObject({ subject: "", count: "3", loud: false, mode: '"fast"', tags: "" });
  });

  it("turns the values into typed arguments, leaving out optional fields left empty", () => {
    const { args, errors } = toArgs(fields, { ...initialValues(fields), subject: "groceries", tags: '["a"]', ratio: "" });
    expect(errors).toEqual({});
    expect(args).toEqual({ subject: "groceries", count: 3, loud: false, mode: "fast", tags: ["a"] });
  });

  it("explains each wrong value at its field before anything is sent", () => {
    const { errors } = toArgs(fields, { ...initialValues(fields), count: "three", tags: "a, b", meta: "[]", subject: "" });
    expect(errors.subject).toMatch(/required/);
    expect(errors.count).toMatch(/whole number/);
    expect(errors.tags).toMatch(/not valid JSON/);
    expect(errors.meta).toMatch(/JSON object/);
  });

  it("checks the schema's deeper rules, such as the type of a list's items", () => {
    expect(schemaErrors(schema, { subject: "x", tags: [1] }).tags).toBe("tags/0 must be string.");
    expect(schemaErrors(schema, { tags: [] }).subject).toBe("subject is required.");
    expect(schemaErrors(schema, { subject: "x", tags: ["ok"] })).toEqual({});
  });
});
