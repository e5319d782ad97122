// What a kind of source must provide to be called through the one pipeline (call.ts): a CallTarget per operation.
// A tree file's is sources/tree.ts, a built-in's sources/system.ts; a new kind of source (an MCP server) is one
// more file beside them, and the pipeline — settings, secrets, bound, masking, the outcome — stays as it is.
import type { CallResult } from "@/server/host/protocol";

/** What the pipeline hands the source for one call. */
export type SourceCall = {
  /** The entry's settings, every `${NAME}` already replaced by its value: for the source only, never shown. */
  settings: Record<string, unknown>;
  /** Aborted when the caller stops the call or its bound ends it; the source stops what it started. */
  signal: AbortSignal;
  /** One progress line; the pipeline masks it before anyone sees it. */
  progress(message: string): void;
  /** Run `work` (a wait on the studio or a person) with the call's bound stopped (R-call-wait-not-counted). */
  waiting<T>(work: () => Promise<T>): Promise<T>;
};

/** One operation of one source, ready to be called. */
export type CallTarget = {
  /** The operation's name, as answers about the call (a timeout, a failure) name it. */
  name: string;
  /** How long past the bound the pipeline waits for the source's own timeout answer (a tool host keeps one). */
  graceMs: number;
  /** Call it and answer with any outcome; a throw becomes the timeout, the stop or a failure (call.ts). */
  invoke(args: Record<string, unknown>, call: SourceCall): Promise<CallResult>;
};
