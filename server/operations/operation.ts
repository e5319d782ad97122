// One operation as the builder, the catalog and the model view read it, whatever its source (a built-in, a tree
// file, later an MCP server). Edit when an operation gains a field every source can say.
export const RISKS = ["read", "write", "network", "exec"] as const;
export type Risk = (typeof RISKS)[number];
export const REPLAYS = ["safe", "idempotent", "manual"] as const;
export type Replay = (typeof REPLAYS)[number];

/** A JSON Schema object, as the tool host and the built-ins write them. */
export type JsonSchema = Record<string, unknown>;

export type Operation = {
  /** What the model calls: stable, `^[a-zA-Z0-9_-]{1,128}$`. */
  name: string;
  /** What a person reads; may be reworded, unlike the name (R-name-title). */
  title: string;
  /** One line written for the model: what it does and what it refuses. */
  description: string;
  /** What the model fills. */
  input_schema: JsonSchema;
  risk: Risk;
  read_only: boolean;
  destructive: boolean;
  /** May run beside other calls of the same turn (R-loop-concurrency). */
  concurrent: boolean;
  /** The operation's own bound in seconds, which no policy changes; null uses the agent's default. */
  timeout: number | null;
  replay: Replay;
  /** Tags from the closed vocabulary (capabilities.ts): what a need resolves against. */
  capabilities: string[];
};

/**
 * Risks ranked from least to most: a source's risk badge is its riskiest operation. Running programs (exec)
 * outranks reaching the network, which outranks changing files, which outranks reading.
 */
export function highestRisk(risks: Iterable<Risk>): Risk {
  let best = 0;
  for (const risk of risks) best = Math.max(best, RISKS.indexOf(risk));
  return RISKS[best]!;
}

export function isRisk(value: unknown): value is Risk {
  return typeof value === "string" && (RISKS as readonly string[]).includes(value);
}

export function isReplay(value: unknown): value is Replay {
  return typeof value === "string" && (REPLAYS as readonly string[]).includes(value);
}
