// One call by hand, as the editor's Try it panel makes it: the saved file's operation through the one call
// pipeline (call.ts) and the same host a run uses, its progress lines as they come, then the result exactly as the
// model gets it. The call's own secrets: resolved for it, one `secret.used` row each, every event leaving masked.
import type { Db } from "@/db/client";
import { hostFor } from "@/server/host";
import type { CallResult } from "@/server/host/protocol";
import { callOperation, SettingsUnavailable } from "./call";
import { Inbox } from "./inbox";
import { callSecrets } from "./secrets";
import { treeTarget } from "./sources/tree";
import type { CallTarget } from "./target";

export type TryEvent =
  | { type: "progress"; message: string }
  | { type: "result"; result: CallResult; durationMs: number };

export type TryRequest = {
  tree: string;
  /** Where the settings' ${NAME} references are resolved and their use audited. */
  db: Db;
  /** Who makes the call: the actor of the `secret.used` audit rows. */
  actor: string;
  name: string;
  args: Record<string, unknown>;
  settings: Record<string, unknown>;
  signal?: AbortSignal;
};

/** The call's events; an unknown secret name throws its DomainError before the host is asked anything. */
export function tryCall(request: TryRequest): AsyncGenerator<TryEvent> {
  return tryTarget(treeTarget(hostFor(request.tree), request.name), request);
}

/** Any source's operation called by hand (an MCP server's tool from its row, try-mcp.ts), streamed the same way. */
export async function* tryTarget(target: CallTarget, request: Omit<TryRequest, "tree" | "name">): AsyncGenerator<TryEvent> {
  const inbox = new Inbox<TryEvent>(request.signal);
  const started = performance.now();
  callOperation({
    target,
    args: request.args,
    settings: request.settings,
    secrets: callSecrets(request.db, { actor: request.actor, via: "try-it" }),
    // Outside a run the host's own bound applies (R-call-timeout-outside-run).
    bound: null,
    signal: request.signal,
    onProgress: (message) => inbox.push({ type: "progress", message }),
  }).then(
    (result) => {
      inbox.push({ type: "result", result, durationMs: Math.round(performance.now() - started) });
      inbox.end();
    },
    // A stop by the caller ends the stream quietly (nobody reads it any more); settings that cannot be given
    // reach the caller as the store's own error, with its code.
    (err: unknown) => inbox.end(request.signal?.aborted ? undefined : err instanceof SettingsUnavailable ? err.cause : err),
  );
  try {
    for (let next = await inbox.take(); next; next = await inbox.take()) yield next;
  } finally {
    inbox.close();
  }
}
