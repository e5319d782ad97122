// system:memory: a small key-value store kept per agent, across runs, so an agent can remember what it learned.
import { inputs, operation, type SystemSource } from "./types";

const key = { type: "string", minLength: 1, maxLength: 200, description: "The fact's key, e.g. customer.timezone." };

export const memory: SystemSource = {
  name: "memory",
  title: "Memory",
  description: "Remember short facts between runs: a key-value store of this agent's own, shared by none other.",
  settings_schema: null,
  operations: [
    operation({
      name: "memory_get",
      title: "Recall a fact",
      description: "Answer the value remembered under one key; a key never set answers an error that lists a few keys that exist.",
      input_schema: inputs({ key }, ["key"]),
      risk: "read",
      read_only: true,
      capabilities: ["memory.read"],
    }),
    operation({
      name: "memory_set",
      title: "Remember a fact",
      description: "Remember one value under a key, replacing what the key held before; refuses values over 10,000 characters.",
      input_schema: inputs({ key, value: { type: "string", description: "What to remember." } }, ["key", "value"]),
      risk: "write",
      capabilities: ["memory.write"],
    }),
    operation({
      name: "memory_list",
      title: "List remembered facts",
      description: "List the keys this agent remembers, optionally only those starting with a prefix, sorted, at most 200.",
      input_schema: inputs({ prefix: { type: "string", default: "", description: "Only keys that start with this." } }),
      risk: "read",
      read_only: true,
      capabilities: ["memory.read"],
    }),
    operation({
      name: "memory_delete",
      title: "Forget a fact",
      description: "Forget the value under one key; a key never set is not an error.",
      input_schema: inputs({ key }, ["key"]),
      risk: "write",
      destructive: true,
      capabilities: ["memory.write"],
    }),
  ],
  handlers: {},
};
