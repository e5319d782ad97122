// What a Runtime is made with: the database, the tree and data folders, the bus and MCP pool it shares with the rest
// of the process, what this process does with runs (R-queue-role) and how many it drives at once, and the settings
// every run it drives follows. Edit when a runtime takes a new option.
import type { Channel, Db } from "@/db/client";
import type { McpPool } from "@/server/mcp/pool";
import type { RuntimeSettings } from "./run";
import { VOICE_TIMING } from "./voice";

/** What this process does with runs (QUIVER_ROLE): `web` only queues them, `worker` and `all` drive them. */
export type Role = "all" | "web" | "worker";

export type RuntimeOptions = {
  db: Db;
  tree: string;
  dataDir: string;
  /** PostgreSQL's LISTEN/NOTIFY, where other studio processes may share the database (bus.ts). */
  channel?: Channel;
  /** The MCP servers' connections; the studio process's own pool by default. */
  mcp?: McpPool;
  /** Whether this process drives runs (R-queue-role); `all` by default. */
  role?: Role;
  /** How many runs this process drives at once; more wait on the queue for room here or elsewhere. */
  maxRuns?: number;
  /** The run queue's name: the studio's own unless tests sharing one database each want theirs. */
  queue?: string;
  /** Told how long each refresh of this process's leases took, and for how many runs (bench:takeover). */
  onLeaseRefresh?: (ms: number, runs: number) => void;
} & Partial<RuntimeSettings>;

/** The runs one process drives at once unless told otherwise. */
export const MAX_RUNS = 500;

/** The settings of every run, the options' where given. */
export function settingsOf(options: Partial<RuntimeSettings>): RuntimeSettings {
  return {
    voice: options.voice ?? VOICE_TIMING,
    modelRetries: options.modelRetries ?? 2,
    modelRetryMs: options.modelRetryMs ?? 1_000,
    maxSteps: options.maxSteps ?? 50,
    canAsk: options.canAsk ?? true,
    retryMs: options.retryMs ?? 250,
    checkMaxAgeS: options.checkMaxAgeS,
    askUserMs: options.askUserMs,
    onStep: options.onStep,
  };
}
