// A built-in's operation as a call target: its handler (server/system) in this process, given the settings in
// the context the caller builds for it, and stopped where it stands when the call is aborted.
import { errorResult, type CallResult, type Content } from "@/server/host/protocol";
import { systemHandler, type SystemContext, type SystemResult } from "@/server/system";
import type { CallTarget, SourceCall } from "../target";

/** A handler's answer in the shape every source answers in. */
export function fromSystem(result: SystemResult): CallResult {
  const content: Content[] = [{ type: "text", text: result.text }, ...(result.images ?? []).map((image) => ({ type: "image" as const, ...image }))];
  return { content, isError: result.outcome !== "ok", outcome: result.outcome, durationMs: null, truncated: null };
}

/** `source` is the part after `system:`; `context` builds what the handler is given for this call. */
export function systemTarget(source: string, name: string, context: (call: SourceCall) => SystemContext): CallTarget {
  return {
    name,
    graceMs: 0,
    async invoke(args, call) {
      const handler = systemHandler(source, name);
      if (!handler) return errorResult(`${name} is declared but has no implementation in this studio yet, so it did not run.`);
      const aborted = new Promise<never>((_, reject) => {
        if (call.signal.aborted) reject(call.signal.reason);
        call.signal.addEventListener("abort", () => reject(call.signal.reason), { once: true });
      });
      return fromSystem(await Promise.race([handler(args, context(call)), aborted]));
    },
  };
}
