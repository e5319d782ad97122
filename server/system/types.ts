// What a built-in source declares (the same fields as a tree file's catalog entry, written by hand) and what its
// handlers are given and answer. Edit when the runtime hands a handler something new, or a result says more.
import type { Db } from "@/db/client";
import type { JsonSchema, Operation } from "@/server/operations/operation";
import type { Image, Outcome } from "@/server/host/protocol";
import type { CodeSources } from "./compute/modules";

/** What one call answers the model: text always, an error whenever the outcome is not "ok" (R-result-outcome). */
export type SystemResult = { text: string; outcome: Outcome; images?: Image[] };

/** One step of the plan (R-sys-planning): content and a status; extra keys are kept as they came. */
export type Todo = { content: string; status: "pending" | "in_progress" | "completed"; [key: string]: unknown };

/** What the runtime gives a handler besides the validated arguments. */
export type SystemContext = {
  /** The entry's settings, resolved: defaults filled, secrets resolved, a root as an absolute folder (settings.ts). */
  settings: Record<string, unknown>;
  agentId: string;
  runId: string;
  /** Aborted when the call is cancelled or its timeout ends it; long handlers stop and kill what they started. */
  signal: AbortSignal;
  /** One progress line for the run's stream (R-loop-progress). */
  progress(text: string): void;
  /**
   * Put a question to the person running the agent; null when nobody answered (or nobody can be asked). `withinMs`:
   * how long to wait before answering null (R-ask-hour); no limit without it.
   */
  ask(question: string, choices: string[], withinMs?: number): Promise<string | null>;
  /** The run's plan, which the runtime keeps and streams. */
  todos: { get(): Promise<Todo[]>; set(todos: Todo[]): Promise<void> };
  db: Db;
  /** The studio's data folder: hidden from every command a handler starts. */
  dataDir: string;
  /** Where run_bash runs: the agent's filesystem root when it has one, else the workspace. Absolute. */
  workDir: string;
  /** Where generate_file puts the run's downloads (outputDirFor); the studio's, never under a root. */
  outputDir: string;
  /** The tool tree compute_exec imports from, and the agent's files of it: "notes.py" → its narrowed operations, or null for all. */
  tree: { dir: string; files: Record<string, string[] | null> };
  /** Run commands inside bubblewrap where it works (default true); false forces them unsandboxed. */
  sandbox?: boolean;
  /** compute_exec's in a run: the agent's sources a program imports from quiver.sources (R-code-import). */
  sources?: CodeSources;
};

/** One operation's implementation. It always answers a result, and throws only on a bug. */
export type SystemHandler = (args: Record<string, unknown>, ctx: SystemContext) => Promise<SystemResult>;

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
  /** Implementations by operation name; an operation without one is declared but cannot run. */
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
    // R-sys-replay-manual: built-ins are not marked replay-safe automatically; each says so where it is.
    replay: "manual",
    ...fields,
  };
}
