// A tree file's operation as a call target: called through the tree's tool host, its settings in the call's
// `_meta` and never in the arguments (R-host-meta). The host keeps the bound itself and answers TimeoutError at
// it (R-call-timeout-answer); the studio waits a little longer before giving up on a silent host.
import type { Host, StudioRequest } from "@/server/host";
import type { Progress } from "@/server/host/protocol";
import type { CallTarget } from "../target";

/** How long past its bound the studio waits for the tool host's own TimeoutError. */
export const HOST_GRACE_MS = 5_000;

export type TreeCallOptions = {
  /** The caller's default bound for an operation without its own, in seconds (a run's policy). */
  timeoutS?: number;
  /** Whose kept instances the call uses (a run's id). */
  session?: string;
  /** What the tool asks the studio while it runs (ctx.system, ctx.ask); answered with the call's bound stopped. */
  onStudioRequest?: (request: StudioRequest) => Promise<Record<string, unknown>>;
  /** The call's idempotency key (R-journal-idempotent): the tool reads it as ctx.idempotency_key. */
  idempotencyKey?: string;
};

/** A progress notification as one line: the tool's message, else how far it got. */
export function progressLine(progress: Progress): string {
  return progress.message ?? (progress.total ? `${progress.progress} of ${progress.total}` : String(progress.progress));
}

export function treeTarget(host: Host, name: string, options: TreeCallOptions = {}): CallTarget {
  const studio = options.onStudioRequest;
  return {
    name,
    graceMs: HOST_GRACE_MS,
    invoke: (args, call) =>
      host.call(name, args, {
        settings: call.settings,
        timeoutS: options.timeoutS,
        session: options.session,
        idempotencyKey: options.idempotencyKey,
        signal: call.signal,
        onProgress: (progress) => call.progress(progressLine(progress)),
        onStudioRequest: studio ? (request) => call.waiting(() => studio(request)) : undefined,
      }),
  };
}
