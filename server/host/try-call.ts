// One call by hand, as the editor's Try it panel makes it: the saved file's operation through the same
// host the runtime uses, its progress lines as they come, then the result exactly as the model gets it.
// Secrets: ${NAME} settings are resolved here and reach the host in `_meta` only; every event leaving is masked.
import type { Db } from "@/db/client";
import { makeMasker, type Masker } from "@/server/secrets/mask";
import { resolveSettings } from "@/server/secrets/resolve";
import { hostFor } from "./supervisor";
import type { CallResult } from "./protocol";

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

/** The result with every secret value that came back in its text replaced by ***. */
function masked(result: CallResult, mask: Masker): CallResult {
  if (!mask.active) return result;
  return {
    ...result,
    content: result.content.map((part) => (part.type === "text" ? { ...part, text: mask(part.text) } : part)),
    truncated: result.truncated === null ? null : mask(result.truncated),
  };
}

export async function* tryCall(request: TryRequest): AsyncGenerator<TryEvent> {
  // An unknown secret name is refused here, before the host is asked anything.
  const { settings, values } = await resolveSettings(request.db, request.settings, {
    actor: request.actor,
    via: "try-it",
    tool: request.name,
  });
  const mask = makeMasker(values);
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
      settings,
      signal: request.signal,
      onProgress: (progress) => push({ type: "progress", message: mask(progress.message ?? `${progress.progress}`) }),
    })
    .then((result) => push({ type: "result", result: masked(result, mask), durationMs: Math.round(performance.now() - started) }))
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
