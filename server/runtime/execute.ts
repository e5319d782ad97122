// One attempt at one call, after its permission is settled: a tree file's operation through its tool host (the
// settings, secrets resolved, in `_meta`), or a built-in through its handler (the settings in its context).
// Settings and secrets are resolved here, at dispatch, and nowhere earlier. The answer is an outcome (ok, refused,
// failed, transient, timeout), text and any images.
import { systemHandler } from "@/server/system";
import type { CallResult, StudioRequest } from "@/server/host";
import { resolveSettings } from "@/server/secrets/resolve";
import type { RunOperation } from "./catalog";
import type { Run } from "./run";
import { systemContext } from "./context";
import type { Image, Outcome } from "./shapes";

export type Attempt = { outcome: Outcome; text: string; images: Image[]; truncated: string | null };

/** How long past its bound the studio waits for the tool host's own TimeoutError before giving up on it. */
const HOST_GRACE_MS = 5_000;

export function timeoutText(name: string, bound: number): string {
  return `TimeoutError: ${name} did not finish within ${bound} s; it may have partly run, so check its effects before calling it again.`;
}

export const STOPPED_DURING =
  "The person running this agent stopped the run while this call ran or waited on them, so it was cut off and may have partly run; check its effects before calling it again.";

class CallTimeout extends Error {}

export const STOPPED_WAITING =
  "The person running this agent stopped the run instead of answering, so there is no answer and nothing was done. Do not ask again unless they ask you to.";

/**
 * A call the run's stop cut short answers so (one that only waited on the person did nothing: a refusal); one the
 * studio's shutdown cut short answers nothing (it throws).
 */
function stopped(run: Run, op: RunOperation, err: unknown = run.controller.signal.reason): Attempt {
  if (!run.cancelled) throw err;
  if (op.interactive) return { outcome: "refused", text: STOPPED_WAITING, images: [], truncated: null };
  return { outcome: "failed", text: STOPPED_DURING, images: [], truncated: null };
}

function fromHost(result: CallResult): Attempt {
  const text = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  const images = result.content.flatMap((part) => (part.type === "image" ? [{ mimeType: part.mimeType, data: part.data }] : []));
  return { outcome: result.outcome, text, images, truncated: result.truncated };
}

type Clock = { pause(): void; resume(): void; clear(): void };

/**
 * A timer that aborts `controller` after `seconds` (plus a grace), or nothing when there is no bound. It stops
 * while the call waits on the studio (a person's answer, an approval of a ctx.system call): waiting on a person
 * never counts against a tool's timeout (R-call-wait-not-counted). The host pauses its own bound the same way.
 */
function bounded(controller: AbortController, seconds: number | null, graceMs = 0): Clock {
  if (seconds === null) return { pause() {}, resume() {}, clear() {} };
  let left = seconds * 1000 + graceMs;
  let since = performance.now();
  let waits = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = () => {
    since = performance.now();
    timer = setTimeout(() => controller.abort(new CallTimeout()), Math.max(left, 0));
  };
  arm();
  return {
    pause() {
      if (waits++ > 0 || timer === null) return;
      clearTimeout(timer);
      timer = null;
      left -= performance.now() - since;
    },
    resume() {
      if (--waits > 0 || controller.signal.aborted) return;
      arm();
    },
    clear() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      waits = Number.POSITIVE_INFINITY; // nothing re-arms it
    },
  };
}

export async function attempt(
  run: Run,
  op: RunOperation,
  callId: string,
  args: Record<string, unknown>,
  bound: number | null,
  options: {
    resumed: boolean;
    onProgress: (message: string) => void;
    /** A tree tool's requests to the studio while it runs (ctx.system, ctx.ask). */
    onStudioRequest?: (request: StudioRequest) => Promise<Record<string, unknown>>;
  },
): Promise<Attempt> {
  const entry = run.declaration.tools[op.entry]!;
  let settings: Record<string, unknown>;
  try {
    const resolved = await resolveSettings(run.deps.db, entry.settings, { actor: run.startedBy, via: "run", tool: op.name });
    run.addSecrets(resolved.values);
    settings = resolved.settings;
  } catch (err) {
    return { outcome: "failed", text: `${op.name} could not be given its settings: ${(err as Error).message}`, images: [], truncated: null };
  }

  if (run.controller.signal.aborted) return stopped(run, op);
  const controller = new AbortController();
  const stopRun = () => controller.abort(run.controller.signal.reason);
  run.controller.signal.addEventListener("abort", stopRun);
  // The host answers TimeoutError itself at the bound; the studio stops waiting a little after.
  const clock = bounded(controller, bound, op.kind === "tree" ? HOST_GRACE_MS : 0);
  const studio = options.onStudioRequest;
  try {
    if (op.kind === "tree") {
      const result = await run.host.call(op.name, args, {
        settings,
        timeoutS: run.declaration.policy.timeout_s,
        session: run.id,
        signal: controller.signal,
        onProgress: (p) => options.onProgress(p.message ?? (p.total ? `${p.progress} of ${p.total}` : String(p.progress))),
        onStudioRequest: studio
          ? async (request) => {
              clock.pause();
              try {
                return await studio(request);
              } finally {
                clock.resume();
              }
            }
          : undefined,
      });
      return fromHost(result);
    }
    const handler = systemHandler(op.source.slice("system:".length), op.name);
    if (!handler) return { outcome: "failed", text: `${op.name} is declared but has no implementation in this studio yet, so it did not run.`, images: [], truncated: null };
    const ctx = systemContext(run, op, { callId, settings, signal: controller.signal, resumed: options.resumed, progress: options.onProgress });
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
    });
    const result = await Promise.race([handler(args, ctx), aborted]);
    return { outcome: result.outcome, text: result.text, images: result.images ?? [], truncated: null };
  } catch (err) {
    if (err instanceof CallTimeout || controller.signal.reason instanceof CallTimeout) {
      return { outcome: "timeout", text: timeoutText(op.name, bound ?? 0), images: [], truncated: null };
    }
    if (run.controller.signal.aborted) return stopped(run, op, err);
    // Handlers answer every outcome themselves; a throw is a bug, reported as a failure as `<Type>: <message>` (R-result-exception).
    const error = err instanceof Error ? err : new Error(String(err));
    return { outcome: "failed", text: error.message ? `${error.name}: ${error.message}` : error.name, images: [], truncated: null };
  } finally {
    clock.clear();
    run.controller.signal.removeEventListener("abort", stopRun);
  }
}
