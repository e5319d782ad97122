// One attempt at one call, after its permission is settled: a tree file's operation through its tool host (the
// settings, secrets resolved, in `_meta`), or a built-in through its handler (the settings in its context).
// Settings and secrets are resolved here, at dispatch, and nowhere earlier. The answer is an outcome (ok, refused,
// failed, transient, timeout), text and any images.
import { systemHandler } from "@/server/system";
import type { CallResult } from "@/server/host";
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

class CallTimeout extends Error {}

function fromHost(result: CallResult): Attempt {
  const text = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  const images = result.content.flatMap((part) => (part.type === "image" ? [{ mimeType: part.mimeType, data: part.data }] : []));
  return { outcome: result.outcome, text, images, truncated: result.truncated };
}

/** A timer that aborts `controller` after `seconds` (plus a grace), or nothing when there is no bound. */
function bounded(controller: AbortController, seconds: number | null, graceMs = 0): () => void {
  if (seconds === null) return () => {};
  const timer = setTimeout(() => controller.abort(new CallTimeout()), seconds * 1000 + graceMs);
  return () => clearTimeout(timer);
}

export async function attempt(
  run: Run,
  op: RunOperation,
  callId: string,
  args: Record<string, unknown>,
  bound: number | null,
  options: { resumed: boolean; onProgress: (message: string) => void },
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

  const controller = new AbortController();
  const stopRun = () => controller.abort(run.controller.signal.reason);
  run.controller.signal.addEventListener("abort", stopRun);
  // The host answers TimeoutError itself at the bound; the studio stops waiting a little after.
  const clear = bounded(controller, bound, op.kind === "tree" ? HOST_GRACE_MS : 0);
  try {
    if (op.kind === "tree") {
      const result = await run.host.call(op.name, args, {
        settings,
        timeoutS: run.declaration.policy.timeout_s,
        session: run.id,
        signal: controller.signal,
        onProgress: (p) => options.onProgress(p.message ?? (p.total ? `${p.progress} of ${p.total}` : String(p.progress))),
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
    if (run.controller.signal.aborted) throw err;
    // Handlers answer every outcome themselves; a throw is a bug, reported as a failure in seed 000's words.
    const error = err instanceof Error ? err : new Error(String(err));
    return { outcome: "failed", text: error.message ? `${error.name}: ${error.message}` : error.name, images: [], truncated: null };
  } finally {
    clear();
    run.controller.signal.removeEventListener("abort", stopRun);
  }
}
