// One call by hand, as the editor's Try it panel makes it: the saved file's operation through the same
// host the runtime uses, its progress lines as they come, then the result exactly as the model gets it.
import { hostFor } from "./supervisor";
import type { CallResult } from "./protocol";

export type TryEvent =
  | { type: "progress"; message: string }
  | { type: "result"; result: CallResult; durationMs: number };

export type TryRequest = {
  tree: string;
  name: string;
  args: Record<string, unknown>;
  settings: Record<string, unknown>;
  signal?: AbortSignal;
};

export async function* tryCall(request: TryRequest): AsyncGenerator<TryEvent> {
  const events: TryEvent[] = [];
  let wake: (() => void) | null = null;
  let finished = false;
  const push = (event: TryEvent) => {
    events.push(event);
    wake?.();
  };
  const started = performance.now();
  hostFor(request.tree)
    .call(request.name, request.args, {
      settings: request.settings,
      signal: request.signal,
      onProgress: (progress) => push({ type: "progress", message: progress.message ?? `${progress.progress}` }),
    })
    .then((result) => push({ type: "result", result, durationMs: Math.round(performance.now() - started) }))
    .finally(() => {
      finished = true;
      wake?.();
    });
  for (;;) {
    const next = events.shift();
    if (next) {
      yield next;
      continue;
    }
    if (finished) return;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
}
