// References written out in full (R-mcp-schema-normalise) and the ones refused (R-mcp-schema-cycle): each case is
// the exact schema a model is given, or the exact sentence.
import { describe, expect, it } from "vitest";
import { normaliseToolSchema, type Normalised } from "./normalise";

type Case = { name: string; input: unknown; expected: Normalised | { problem: string } };

/** Ten definitions, each pointing four times at the next: 4^10 copies once written out. */
const doubling = Object.fromEntries(
  Array.from({ length: 10 }, (_, level) => [
    `L${level}`,
    {
      type: "object",
      properties: Object.fromEntries([0, 1, 2, 3].map((k) => [`p${k}`, level === 9 ? { type: "string" } : { $ref: `#/$defs/L${level + 1}` }])),
    },
  ]),
);

const CASES: Case[] = [
  {
    name: "a $ref to a nested path (#/$defs/A/properties/b) is the schema at that path",
    input: {
      type: "object",
      properties: { copy: { $ref: "#/$defs/A/properties/b" } },
      $defs: { A: { type: "object", properties: { b: { type: "integer", minimum: 0 } } } },
    },
    expected: { schema: { type: "object", properties: { copy: { type: "integer", minimum: 0 } }, required: [] } },
  },
  {
    name: "a description beside a $ref wins over the target's, and the target's other keywords stay",
    input: {
      type: "object",
      properties: { when: { $ref: "#/$defs/Stamp", description: "When the note is due" } },
      $defs: { Stamp: { type: "string", format: "date-time", description: "A moment" } },
    },
    expected: { schema: { type: "object", properties: { when: { type: "string", format: "date-time", description: "When the note is due" } }, required: [] } },
  },
  {
    name: "a $ref written with the schema's own $id is a reference inside it",
    input: {
      $id: "https://example.com/tool",
      type: "object",
      properties: { a: { $ref: "https://example.com/tool#/$defs/A" } },
      $defs: { A: { type: "integer", $comment: "counted from one" } },
    },
    expected: { schema: { type: "object", properties: { a: { type: "integer" } }, required: [] } },
  },
  {
    name: "a path with ~1 and percent escapes is decoded",
    input: { type: "object", properties: { a: { $ref: "#/$defs/a~1b%20c" } }, $defs: { "a/b c": { type: "boolean" } } },
    expected: { schema: { type: "object", properties: { a: { type: "boolean" } }, required: [] } },
  },
  {
    name: "two definitions that point at each other are a cycle named by where it starts",
    input: {
      type: "object",
      properties: { start: { $ref: "#/$defs/A" } },
      $defs: { A: { type: "object", properties: { b: { $ref: "#/$defs/B" } } }, B: { type: "object", properties: { a: { $ref: "#/$defs/A" } } } },
    },
    expected: { problem: "A refers to itself through b.a; a model cannot be given a recursive schema." },
  },
  {
    name: "a definition that is its own reference is a cycle with no path",
    input: { type: "object", properties: { loop: { $ref: "#/$defs/Loop" } }, $defs: { Loop: { $ref: "#/$defs/Loop" } } },
    expected: { problem: "Loop refers to itself; a model cannot be given a recursive schema." },
  },
  {
    name: "a $ref to # inside the schema is the input referring to itself",
    input: { type: "object", properties: { name: { type: "string" }, child: { $ref: "#" } } },
    expected: { problem: "The input refers to itself through child; a model cannot be given a recursive schema." },
  },
  {
    name: "a $ref to another document is refused",
    input: { type: "object", properties: { user: { $ref: "https://example.com/schemas/user.json" } } },
    expected: {
      problem:
        "The property user refers to https://example.com/schemas/user.json, outside the schema; a model can only be given a schema that carries every part it uses.",
    },
  },
  {
    name: "a $ref to a definition the schema lacks is refused",
    input: { type: "object", properties: { user: { $ref: "#/$defs/User" } }, $defs: { Users: { type: "string" } } },
    expected: { problem: "The property user refers to #/$defs/User, which the schema does not contain." },
  },
  {
    name: "a $ref by anchor name is refused",
    input: { type: "object", properties: { a: { $ref: "#A" } }, $defs: { A: { $anchor: "A", type: "integer" } } },
    expected: { problem: "The property a refers to #A by an anchor name; Quiver writes out only references by path (#/...)." },
  },
  {
    name: "$dynamicRef is refused rather than guessed",
    input: { type: "object", properties: { a: { $dynamicRef: "#node" } } },
    expected: { problem: "The property a uses $dynamicRef, which Quiver does not resolve; only $ref to a path in the schema is written out." },
  },
  {
    name: "references that multiply past the size limit are refused, not written out",
    input: { type: "object", properties: { top: { $ref: "#/$defs/L0" } }, $defs: doubling },
    expected: { problem: "The schema grows past 20000 parts once its references are written out; a model cannot be given a schema that large." },
  },
];

describe("normaliseToolSchema writes out references", () => {
  it.each(CASES)("$name", ({ input, expected }) => {
    expect(normaliseToolSchema(input, { provider: "anthropic" })).toStrictEqual(expected);
  });

  it("refuses a schema nested past the depth limit with a sentence, not a stack overflow", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 5000; level += 1) deep = { type: "object", properties: { next: deep } };
    expect(normaliseToolSchema(deep, { provider: "openai" })).toStrictEqual({
      problem: "The schema nests deeper than 64 levels; a model cannot be given a schema that deep.",
    });
  });
});
