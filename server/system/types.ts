// What a built-in source declares: the same fields as a tree file's catalog entry, written by hand. The handlers
// come with the runs issue: each source module fills its `handlers` map, and nothing else changes shape.
import type { JsonSchema, Operation } from "@/server/catalog/operation";

/** What a handler is given at call time: the validated arguments and the builder's settings (secrets resolved). */
export type SystemCall = {
  args: Record<string, unknown>;
  settings: Record<string, unknown>;
  signal: AbortSignal;
  /** The agent the call belongs to (memory is kept per agent). */
  agentId: string;
  /** The run's working folder. */
  workDir: string;
};

/** One operation's implementation: text for the model, or a thrown error (a refusal or a failure). */
export type SystemHandler = (call: SystemCall) => Promise<string>;

export type SystemSource = {
  /** The part after `system:`, e.g. "filesystem". */
  name: string;
  title: string;
  /** One line for a builder deciding whether this is the source they want. */
  description: string;
  /** What the builder fills once per agent, never shown to the model; null when there is nothing to configure. */
  settings_schema: JsonSchema | null;
  /** In the order the model is offered them. */
  operations: Operation[];
  /** Implementations by operation name; an operation without one is declared but cannot run yet. */
  handlers: Partial<Record<string, SystemHandler>>;
};

/** An input schema: an object of the given properties, nothing else. */
export function inputs(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: "object", properties, required, additionalProperties: false };
}

/** An operation with the defaults of a built-in: serial, not destructive, the policy's timeout, manual replay. */
export function operation(fields: Pick<Operation, "name" | "title" | "description" | "input_schema" | "risk" | "capabilities"> & Partial<Operation>): Operation {
  const read_only = fields.read_only ?? false;
  return {
    read_only,
    destructive: false,
    concurrent: read_only,
    timeout: null,
    // Seed 002: built-ins are not marked replay-safe automatically; each says so where it is.
    replay: "manual",
    ...fields,
  };
}
