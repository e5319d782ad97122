// The table of schemas normalised for each provider (R-mcp-schema-normalise, R-mcp-schema-cycle): first the
// official reference servers' own tools, recorded by tests/fixtures/mcp/record.ts, then the shapes users reported
// breaking other studios. Each case states the exact schema a model is given, or the exact sentence.
import { describe, expect, it } from "vitest";
import everything from "../../../tests/fixtures/mcp/everything.tools.json";
import filesystem from "../../../tests/fixtures/mcp/filesystem.tools.json";
import memory from "../../../tests/fixtures/mcp/memory.tools.json";
import { normaliseToolSchema, type Normalised, type NormaliseOptions } from "./normalise";

type Case = { name: string; input: unknown; options: NormaliseOptions; expected: Normalised | { problem: string } };

const SERVERS = { everything, filesystem, memory };
const fromServer = (server: keyof typeof SERVERS, name: string): unknown => {
  const tool = SERVERS[server].tools.find((t) => t.name === name);
  if (!tool) throw new Error(`The ${server} fixture has no tool ${name}: record the fixtures again.`);
  return tool.inputSchema;
};

const OPENAI = { provider: "openai" } as const;
const OPENAI_STRICT = { provider: "openai", strict: true } as const;
const ANTHROPIC = { provider: "anthropic" } as const;
const ANTHROPIC_STRICT = { provider: "anthropic", strict: true } as const;
const COMPATIBLE = { provider: "openai-compatible" } as const;

const point = { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] };
const closedPoint = { ...point, additionalProperties: false };
const dryRun = { default: false, description: "Preview changes using git-style diff format", type: "boolean" };
const edits = {
  type: "array",
  items: {
    type: "object",
    properties: {
      oldText: { type: "string", description: "Text to search for - must match exactly" },
      newText: { type: "string", description: "Text to replace with" },
    },
    required: ["oldText", "newText"],
  },
};
const gzipName = { default: "README.md.gz", type: "string", description: "Name of the output file" };
const gzipData = {
  default: "https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md",
  type: "string",
  description: "URL or data URI of the file content to compress",
};
const gzipOutput = {
  default: "resourceLink",
  description:
    "How the resulting gzipped file should be returned. 'resourceLink' returns a link to a resource that can be read later, 'resource' returns a full resource object.",
  type: "string",
  enum: ["resourceLink", "resource"],
};
const headTail = (which: "first" | "last", type: unknown) => ({ description: `If provided, returns only the ${which} N lines of the file`, type });
const entity = {
  type: "object",
  properties: {
    name: { type: "string", description: "The name of the entity" },
    entityType: { type: "string", description: "The type of the entity" },
    observations: { type: "array", items: { type: "string" }, description: "An array of observation contents associated with the entity" },
  },
  required: ["name", "entityType", "observations"],
};

const REFERENCE_SERVERS: Case[] = [
  {
    name: "server-everything echo: the draft-07 $schema is dropped and the rest kept",
    input: fromServer("everything", "echo"),
    options: OPENAI,
    expected: { schema: { type: "object", properties: { message: { type: "string", description: "Message to echo" } }, required: ["message"] } },
  },
  {
    name: "server-everything get-env: an object with no arguments stays an object with empty properties",
    input: fromServer("everything", "get-env"),
    options: ANTHROPIC,
    expected: { schema: { type: "object", properties: {}, required: [] } },
  },
  {
    name: "server-everything get-resource-links: Anthropic's strict mode gets the numeric bounds in words",
    input: fromServer("everything", "get-resource-links"),
    options: ANTHROPIC_STRICT,
    expected: {
      schema: {
        type: "object",
        properties: { count: { default: 3, description: "Number of resource links to return (1-10) (minimum: 1; maximum: 10)", type: "number" } },
        required: [],
        additionalProperties: false,
      },
    },
  },
  {
    name: "server-everything gzip-file-as-resource: format uri is kept for OpenAI without strict mode",
    input: fromServer("everything", "gzip-file-as-resource"),
    options: OPENAI,
    expected: { schema: { type: "object", properties: { name: gzipName, data: { ...gzipData, format: "uri" }, outputType: gzipOutput }, required: [] } },
  },
  {
    name: "server-everything gzip-file-as-resource: an OpenAI-compatible server gets format uri in the description",
    input: fromServer("everything", "gzip-file-as-resource"),
    options: COMPATIBLE,
    expected: {
      schema: {
        type: "object",
        properties: { name: gzipName, data: { ...gzipData, description: `${gzipData.description} (format: uri)` }, outputType: gzipOutput },
        required: [],
      },
    },
  },
  {
    name: "server-everything gzip-file-as-resource: OpenAI's strict mode makes every optional field required and nullable",
    input: fromServer("everything", "gzip-file-as-resource"),
    options: OPENAI_STRICT,
    expected: {
      schema: {
        type: "object",
        properties: {
          name: { ...gzipName, type: ["string", "null"] },
          data: { ...gzipData, type: ["string", "null"], description: `${gzipData.description} (format: uri)` },
          outputType: { ...gzipOutput, type: ["string", "null"], enum: ["resourceLink", "resource", null] },
        },
        required: ["name", "data", "outputType"],
        additionalProperties: false,
      },
      nullMeansOmitted: ["/name", "/data", "/outputType"],
    },
  },
  {
    name: "server-filesystem read_text_file: optional head and tail become nullable in OpenAI's strict mode",
    input: fromServer("filesystem", "read_text_file"),
    options: OPENAI_STRICT,
    expected: {
      schema: {
        type: "object",
        properties: { path: { type: "string" }, tail: headTail("last", ["number", "null"]), head: headTail("first", ["number", "null"]) },
        required: ["path", "tail", "head"],
        additionalProperties: false,
      },
      nullMeansOmitted: ["/tail", "/head"],
    },
  },
  {
    name: "server-filesystem read_text_file: optional head and tail stay optional numbers without strict mode",
    input: fromServer("filesystem", "read_text_file"),
    options: ANTHROPIC,
    expected: {
      schema: { type: "object", properties: { path: { type: "string" }, tail: headTail("last", "number"), head: headTail("first", "number") }, required: ["path"] },
    },
  },
  {
    name: "server-filesystem edit_file: objects inside arrays are closed too in OpenAI's strict mode",
    input: fromServer("filesystem", "edit_file"),
    options: OPENAI_STRICT,
    expected: {
      schema: {
        type: "object",
        properties: {
          path: { type: "string" },
          edits: { ...edits, items: { ...edits.items, additionalProperties: false } },
          dryRun: { ...dryRun, type: ["boolean", "null"] },
        },
        required: ["path", "edits", "dryRun"],
        additionalProperties: false,
      },
      nullMeansOmitted: ["/dryRun"],
    },
  },
  {
    name: "server-filesystem directory_tree: a default array is kept for the model to read",
    input: fromServer("filesystem", "directory_tree"),
    options: OPENAI,
    expected: {
      schema: {
        type: "object",
        properties: { path: { type: "string" }, excludePatterns: { default: [], type: "array", items: { type: "string" } } },
        required: ["path"],
      },
    },
  },
  {
    name: "server-memory create_entities: nested required lists already strict need only closing",
    input: fromServer("memory", "create_entities"),
    options: OPENAI_STRICT,
    expected: {
      schema: {
        type: "object",
        properties: { entities: { type: "array", items: { ...entity, additionalProperties: false } } },
        required: ["entities"],
        additionalProperties: false,
      },
    },
  },
  {
    name: "server-memory read_graph: no arguments in Anthropic's strict mode is a closed empty object",
    input: fromServer("memory", "read_graph"),
    options: ANTHROPIC_STRICT,
    expected: { schema: { type: "object", properties: {}, required: [], additionalProperties: false } },
  },
];

// Shapes users reported breaking, each as the tool that produced it sends it.
const zodToJsonSchema = {
  type: "object",
  properties: {
    from: { $ref: "#/definitions/Point" },
    to: { $ref: "#/definitions/Point" },
    // zod-to-json-schema points a schema it has seen once already at its first place.
    via: { type: "array", items: { $ref: "#/properties/from" } },
    label: { type: ["string", "null"] },
  },
  required: ["from", "to"],
  additionalProperties: false,
  definitions: { Point: { ...point, additionalProperties: false } },
  $schema: "http://json-schema.org/draft-07/schema#",
};
const address = {
  properties: { street: { title: "Street", type: "string" }, zip: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Zip" } },
  required: ["street"],
  title: "Address",
  type: "object",
};
const pydantic = {
  $defs: { Address: address },
  properties: {
    name: { title: "Name", type: "string" },
    address: { $ref: "#/$defs/Address" },
    nickname: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Nickname" },
    previous: { anyOf: [{ $ref: "#/$defs/Address" }, { type: "null" }], title: "Previous" },
  },
  required: ["name", "address", "previous"],
  title: "create_contactArguments",
  type: "object",
};
const addressOut = { ...address, properties: { street: address.properties.street, zip: { type: "string", title: "Zip" } } };
const addressStrict = {
  ...address,
  properties: { street: address.properties.street, zip: { type: ["string", "null"], title: "Zip" } },
  required: ["street", "zip"],
  additionalProperties: false,
};
const tree = {
  $defs: {
    Node: {
      properties: { name: { title: "Name", type: "string" }, children: { items: { $ref: "#/$defs/Node" }, type: "array", default: [], title: "Children" } },
      required: ["name"],
      title: "Node",
      type: "object",
    },
  },
  properties: { root: { $ref: "#/$defs/Node" } },
  required: ["root"],
  type: "object",
};
const withMetadata = { type: "object", properties: { metadata: { type: "object", description: "Anything to keep with the note" } } };

const USER_SHAPES: Case[] = [
  {
    name: "zod-to-json-schema: $ref to #/definitions and to #/properties/from written out, an optional nullable label loses null",
    input: zodToJsonSchema,
    options: OPENAI,
    expected: {
      schema: {
        type: "object",
        properties: { from: closedPoint, to: closedPoint, via: { type: "array", items: closedPoint }, label: { type: "string" } },
        required: ["from", "to"],
        additionalProperties: false,
      },
    },
  },
  {
    name: "zod-to-json-schema in OpenAI's strict mode: the optional via and label become required and nullable",
    input: zodToJsonSchema,
    options: OPENAI_STRICT,
    expected: {
      schema: {
        type: "object",
        properties: {
          from: closedPoint,
          to: closedPoint,
          via: { anyOf: [{ type: "array", items: closedPoint }, { type: "null" }] },
          label: { type: ["string", "null"] },
        },
        required: ["from", "to", "via", "label"],
        additionalProperties: false,
      },
      nullMeansOmitted: ["/via", "/label"],
    },
  },
  {
    name: "pydantic v2: $defs inlined, anyOf with null folded, an optional field's null and null default dropped",
    input: pydantic,
    options: OPENAI,
    expected: {
      schema: {
        properties: {
          name: { title: "Name", type: "string" },
          address: addressOut,
          nickname: { type: "string", title: "Nickname" },
          previous: { title: "Previous", anyOf: [addressOut, { type: "null" }] },
        },
        required: ["name", "address", "previous"],
        title: "create_contactArguments",
        type: "object",
      },
    },
  },
  {
    name: "pydantic v2 in OpenAI's strict mode: optional fields nullable and required, nested ones included",
    input: pydantic,
    options: OPENAI_STRICT,
    expected: {
      schema: {
        properties: {
          name: { title: "Name", type: "string" },
          address: addressStrict,
          nickname: { type: ["string", "null"], title: "Nickname" },
          previous: { title: "Previous", anyOf: [addressStrict, { type: "null" }] },
        },
        required: ["name", "address", "nickname", "previous"],
        title: "create_contactArguments",
        type: "object",
        additionalProperties: false,
      },
      nullMeansOmitted: ["/address/zip", "/previous/zip", "/nickname"],
    },
  },
  {
    name: "a recursive tree is refused with a sentence naming the cycle",
    input: tree,
    options: ANTHROPIC,
    expected: { problem: "Node refers to itself through children; a model cannot be given a recursive schema." },
  },
  {
    name: "an object with no properties at the top gets empty properties and required",
    input: { type: "object" },
    options: OPENAI,
    expected: { schema: { type: "object", properties: {}, required: [] } },
  },
  {
    name: "a nested object with no properties is kept an object",
    input: withMetadata,
    options: ANTHROPIC,
    expected: { schema: { type: "object", properties: { metadata: { ...withMetadata.properties.metadata, properties: {} } }, required: [] } },
  },
  {
    name: "a nested object with no properties cannot be strict: any key could come",
    input: withMetadata,
    options: OPENAI_STRICT,
    expected: {
      problem:
        "The property metadata is an object with keys of its own choosing, and strict mode can send only the keys a schema lists; offer the tool without strict mode.",
    },
  },
  {
    name: 'type ["string","null"] stays nullable where required and loses null where it may be left out',
    input: { type: "object", properties: { due: { type: ["string", "null"] }, note: { type: ["string", "null"] } }, required: ["due"] },
    options: OPENAI,
    expected: { schema: { type: "object", properties: { due: { type: ["string", "null"] }, note: { type: "string" } }, required: ["due"] } },
  },
  {
    name: "a top-level string is refused: MCP arguments are an object",
    input: { type: "string", description: "The query" },
    options: ANTHROPIC,
    expected: {
      problem: "The input schema is of type string, not an object; MCP sends a tool's arguments as an object, so no model could call this tool.",
    },
  },
];

describe("normaliseToolSchema on the reference servers' tools", () => {
  it.each(REFERENCE_SERVERS)("$name", ({ input, options, expected }) => {
    expect(normaliseToolSchema(input, options)).toStrictEqual(expected);
  });

  const profiles = [OPENAI, OPENAI_STRICT, ANTHROPIC, ANTHROPIC_STRICT, COMPATIBLE, { provider: "openai-compatible", strict: true } as const];
  const every = Object.values(SERVERS).flatMap((server) => server.tools.map((tool) => ({ server: server.server, tool })));
  it.each(every)("offers $server's $tool.name under every provider profile", ({ tool }) => {
    for (const options of profiles) expect(normaliseToolSchema(tool.inputSchema, options)).not.toHaveProperty("problem");
  });
});

describe("normaliseToolSchema on shapes users reported breaking", () => {
  it.each(USER_SHAPES)("$name", ({ input, options, expected }) => {
    expect(normaliseToolSchema(input, options)).toStrictEqual(expected);
  });
});
