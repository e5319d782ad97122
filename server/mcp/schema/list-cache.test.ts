// A server's tool list is normalised once per list and provider (R-mcp-schema-normalise): the same list read again,
// even as new objects, is answered from the cache without normalising; a changed description or schema, or another
// provider, is a new list and normalised afresh.
import type { Tool } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { listHash, NormalisedLists, type ListWork } from "./list-cache";
import { normaliseToolSchema } from "./normalise";
import { toolPin } from "./pin";

function counted(): { work: ListWork; normalised: () => number; pinned: () => number } {
  let normalised = 0;
  let pinned = 0;
  const work: ListWork = {
    normalise: (schema, options) => {
      normalised += 1;
      return normaliseToolSchema(schema, options);
    },
    pin: (tool) => {
      pinned += 1;
      return toolPin(tool);
    },
  };
  return { work, normalised: () => normalised, pinned: () => pinned };
}

/** The list as a server sends it, made afresh each time as a tools/list answer is. */
const list = (description = "Read a file."): Tool[] => [
  { name: "read_file", description, inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  {
    name: "add_people",
    inputSchema: {
      type: "object",
      $defs: { Person: { type: "object", properties: { name: { type: "string" }, nick: { anyOf: [{ type: "string" }, { type: "null" }] } } } },
      properties: { people: { type: "array", items: { $ref: "#/$defs/Person" } } },
    },
  },
  { name: "broken", inputSchema: { type: "string" } as unknown as Tool["inputSchema"] },
];

describe("normalised lists", () => {
  it("answers an unchanged list from the cache, and normalises a changed one again", () => {
    const { work, normalised, pinned } = counted();
    const lists = new NormalisedLists(work);
    const first = lists.of(list(), "openai");
    expect([normalised(), pinned()]).toEqual([3, 3]);
    expect(first.map((tool) => ("problem" in tool.normalised ? "refused" : tool.normalised.schema.type))).toEqual(["object", "object", "refused"]);
    expect(first[0]!.pin).toBe(toolPin(list()[0]!));

    expect(lists.of(list(), "openai")).toBe(first);
    expect([normalised(), pinned()]).toEqual([3, 3]);

    const changed = lists.of(list("Read a file, and send it somewhere."), "openai");
    expect([normalised(), pinned()]).toEqual([6, 6]);
    expect(changed[0]!.pin).not.toBe(first[0]!.pin);

    lists.of(list(), "anthropic");
    expect(normalised()).toBe(9);
  });

  it("keeps the lists used last, dropping the oldest beyond its size", () => {
    const { work, normalised } = counted();
    const lists = new NormalisedLists(work, 2);
    lists.of(list("a"), "openai");
    lists.of(list("b"), "openai");
    lists.of(list("a"), "openai");
    lists.of(list("c"), "openai");
    expect(normalised()).toBe(9);
    lists.of(list("a"), "openai");
    expect(normalised()).toBe(9);
    lists.of(list("b"), "openai");
    expect(normalised()).toBe(12);
  });

  it("hashes what the model is told: the names, descriptions and schemas, and the provider", () => {
    expect(listHash(list(), "openai")).toBe(listHash(list(), "openai"));
    expect(listHash(list("other"), "openai")).not.toBe(listHash(list(), "openai"));
    expect(listHash(list(), "anthropic")).not.toBe(listHash(list(), "openai"));
    const renamed = list();
    renamed[1] = { ...renamed[1]!, name: "add_persons" };
    expect(listHash(renamed, "openai")).not.toBe(listHash(list(), "openai"));
  });
});
