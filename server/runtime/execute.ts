// One attempt at one call of a run, after its permission is settled: the operation's source as a call target,
// called through the one pipeline (server/calls/) with its entry's settings and the run's secrets, under the run's
// stop. What is the run's own is here: which target each kind of operation is, and what a stopped run's calls
// answer. The answer is an outcome (ok, refused, failed, transient, timeout), text and any images.
import { agentTarget, callOperation, mcpTarget, SettingsUnavailable, systemTarget, treeTarget, type CallTarget, type SourceCall } from "@/server/calls";
import { mcpPool } from "@/server/mcp/pool";
import type { CallResult, StudioRequest } from "@/server/host";
import type { RunOperation } from "./catalog";
import type { Run } from "./run";
import { systemContext } from "./context";
import type { SourceAnswer, SourceRequest } from "@/server/system/compute/modules";
import type { SystemContext } from "@/server/system";
import { codeSources } from "./source-requests";
import { askSpecialist } from "./specialists";
import type { Image, Outcome } from "./shapes";

export type Attempt = { outcome: Outcome; text: string; images: Image[]; truncated: string | null };

export const STOPPED_DURING =
  "The person running this agent stopped the run while this call ran or waited on them, so it was cut off and may have partly run; check its effects before calling it again.";

export const STOPPED_WAITING =
  "The person running this agent stopped the run instead of answering, so there is no answer and nothing was done. Do not ask again unless they ask you to.";

type AttemptOptions = {
  resumed: boolean;
  /** The same for every dispatch of one step (R-journal-idempotent): the tool's ctx.idempotency_key, an MCP call's `_meta`. */
  idempotencyKey?: string;
  onProgress: (message: string) => void;
  /** A tree tool's requests to the studio while it runs (ctx.system, ctx.ask). */
  onStudioRequest?: (request: StudioRequest) => Promise<Record<string, unknown>>;
  /** A compute_exec program's calls of the run's sources (R-code-import). */
  onSourceRequest?: (request: SourceRequest) => Promise<SourceAnswer>;
};

/** compute_exec's context gains the run's sources; the call's bound stops while one of them runs (R-code-clock). */
function withSources(run: Run, context: SystemContext, call: SourceCall, options: AttemptOptions): SystemContext {
  const ask = options.onSourceRequest;
  return ask ? { ...context, sources: codeSources(run, (request) => call.waiting(() => ask(request))) } : context;
}

/** The call target of each kind of operation a run can offer; a new kind of source adds one line. */
const TARGETS: { [K in RunOperation["kind"]]: (run: Run, op: RunOperation, callId: string, options: AttemptOptions) => CallTarget } = {
  tree: (run, op, _callId, options) =>
    treeTarget(run.host, op.name, { timeoutS: run.declaration.policy.timeout_s, session: run.id, onStudioRequest: options.onStudioRequest, idempotencyKey: options.idempotencyKey }),
  system: (run, op, callId, options) =>
    systemTarget(op.source.slice("system:".length), op.name, (call) =>
      withSources(run, systemContext(run, op, { callId, settings: call.settings, signal: call.signal, resumed: options.resumed, progress: call.progress }), call, options),
    ),
  mcp: (run, op, _callId, options) =>
    mcpTarget(run.deps.mcp ?? mcpPool(), run.deps.db, op.mcp!.server, op.mcp!.tool, op.name, {
      nullMeansOmitted: op.mcp!.nullMeansOmitted,
      idempotencyKey: options.idempotencyKey,
      onValues: (values) => run.secrets.learn(values),
    }),
  agent: (run, op, callId) => agentTarget(op.name, (message, call) => askSpecialist(run, op, callId, message, call)),
};

/**
 * A call the run's stop cut short answers so (one that only waited on the person did nothing: a refusal); one the
 * studio's shutdown cut short answers nothing (it throws).
 */
function stopped(run: Run, op: RunOperation, err: unknown): Attempt {
  if (!run.cancelled) throw err;
  if (op.interactive) return { outcome: "refused", text: STOPPED_WAITING, images: [], truncated: null };
  return { outcome: "failed", text: STOPPED_DURING, images: [], truncated: null };
}

function fromResult(result: CallResult): Attempt {
  const text = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  const images = result.content.flatMap((part) => (part.type === "image" ? [{ mimeType: part.mimeType, data: part.data }] : []));
  return { outcome: result.outcome, text, images, truncated: result.truncated };
}

export async function attempt(
  run: Run,
  op: RunOperation,
  callId: string,
  args: Record<string, unknown>,
  bound: number | null,
  options: AttemptOptions,
): Promise<Attempt> {
  try {
    const result = await callOperation({
      target: TARGETS[op.kind](run, op, callId, options),
      args,
      settings: run.declaration.tools[op.entry]!.settings,
      secrets: run.secrets,
      bound,
      signal: run.controller.signal,
      onProgress: options.onProgress,
    });
    return fromResult(result);
  } catch (err) {
    if (err instanceof SettingsUnavailable) return { outcome: "failed", text: err.message, images: [], truncated: null };
    if (run.controller.signal.aborted) return stopped(run, op, err);
    throw err;
  }
}
