// The one way the studio calls an operation with its settings and secrets, whoever asks (Try it, a run) and
// whatever answers (a tree file, a built-in): the `${NAME}` settings resolved by the caller's secret scope, the
// source called through its CallTarget under the caller's bound, and what comes back — result and progress —
// masked (R-secret-mask). It answers every ending as a result, except the two the caller must handle itself:
// settings that cannot be given (SettingsUnavailable) and a stop the caller asked for (its signal's reason).
import { errorResult, type CallResult } from "@/server/host/protocol";
import type { Masker } from "@/server/secrets/mask";
import { CallTimeout, startClock, timeoutText } from "./bound";
import type { SecretScope, Settled } from "./secrets";
import type { CallTarget } from "./target";

export type CallRequest = {
  target: CallTarget;
  args: Record<string, unknown>;
  /** The entry's settings as saved, `${NAME}` references and all. */
  settings: Record<string, unknown>;
  secrets: SecretScope;
  /** Seconds the studio gives the call, or null to leave the bound to the source (R-call-timeout-outside-run). */
  bound: number | null;
  /** The caller's stop. */
  signal?: AbortSignal;
  /** Each progress line, masked. */
  onProgress?: (message: string) => void;
};

/** The call's settings could not be given (an unknown or unreadable secret): nothing was called. */
export class SettingsUnavailable extends Error {
  constructor(
    readonly operation: string,
    readonly cause: unknown,
  ) {
    super(`${operation} could not be given its settings: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "SettingsUnavailable";
  }
}

/** The result with every secret value in its text replaced by ***. */
function masked(result: CallResult, mask: Masker): CallResult {
  if (!mask.active) return result;
  return {
    ...result,
    content: result.content.map((part) => (part.type === "text" ? { ...part, text: mask(part.text) } : part)),
    truncated: result.truncated === null ? null : mask(result.truncated),
  };
}

/** A throw from a source, as the model reads it: `<Type>: <message>` (R-result-exception). */
function failure(err: unknown): string {
  const error = err instanceof Error ? err : new Error(String(err));
  return error.message ? `${error.name}: ${error.message}` : error.name;
}

export async function callOperation(request: CallRequest): Promise<CallResult> {
  const { target, signal: caller } = request;
  let settled: Settled;
  try {
    settled = await request.secrets.settle(request.settings, target.name);
  } catch (err) {
    throw new SettingsUnavailable(target.name, err);
  }
  const { settings, mask } = settled;
  if (caller?.aborted) throw caller.reason;
  const controller = new AbortController();
  const stop = () => controller.abort(caller!.reason);
  caller?.addEventListener("abort", stop);
  const clock = startClock(controller, request.bound, target.graceMs);
  try {
    const result = await target.invoke(request.args, {
      settings,
      signal: controller.signal,
      progress: (message) => request.onProgress?.(mask(message)),
      waiting: (work) => clock.waiting(work),
    });
    return masked(result, mask);
  } catch (err) {
    if (err instanceof CallTimeout || controller.signal.reason instanceof CallTimeout) {
      return errorResult(timeoutText(target.name, request.bound ?? 0), "timeout");
    }
    if (caller?.aborted) throw caller.reason;
    // Sources answer every outcome themselves; a throw is a bug, reported as a failure.
    return errorResult(mask(failure(err)));
  } finally {
    clock.clear();
    caller?.removeEventListener("abort", stop);
  }
}
