// Run traces in OpenTelemetry's GenAI conventions, sent over OTLP when an endpoint is set (R-otel-on). This is all the
// runtime imports: with no endpoint it answers one cached boolean and loads nothing, so start-up, memory and a step
// cost what they did (R-otel-free); the SDK (spans.ts) is imported the first time a run is traced. The runtime passes
// its Run and calls as the plain shapes of shapes.ts, since this layer sits beneath it.
import { env } from "@/server/env";
import type { TracedCall, TracedReply, TracedResult, TracedRun } from "./shapes";
import type { Tracing } from "./spans";

export type { TracedCall, TracedReply, TracedResult, TracedRun };

let on: boolean | undefined;
let loading: Promise<Tracing | null> | null = null;
let loaded: Tracing | null = null;

/** Whether runs are traced: read once, so the hooks cost a comparison when they are not. */
export function tracingOn(): boolean {
  return (on ??= env().otel.traces);
}

function tracing(): Promise<Tracing | null> {
  loading ??= import("./spans").then(
    (m) => (loaded = m.openTracing({ content: env().otel.content })),
    (err: Error) => {
      // Runs go on untraced rather than fail for want of their traces.
      console.error(`[quiver] tracing is off: the OpenTelemetry SDK did not load (${err.message})`);
      on = false;
      return null;
    },
  );
  return loading;
}

/** The run's invoke_agent span starts: once per process that drives it, so a run taken over starts a fresh one (R-otel-takeover). */
export async function traceRun(run: TracedRun): Promise<void> {
  (await tracing())?.runStarted(run);
}

/** Why the run failed, for its span's error.type. */
export function runFailed(run: TracedRun, err: unknown): void {
  loaded?.runFailed(run, err);
}

/** The run's loop here is over: its span ends with the run's status. */
export function runEnded(run: TracedRun): void {
  loaded?.runEnded(run);
}

/** One request to the model, as a chat span under the run's (R-otel-spans). */
export function traceChat<T extends TracedReply>(run: TracedRun, ask: () => Promise<T>): Promise<T> {
  return loaded ? loaded.chat(run, ask) : ask();
}

/** One call of a tool, as an execute_tool span under the run's or under the call that made it (R-otel-spans). */
export function traceTool<T extends TracedResult>(run: TracedRun, call: TracedCall, execute: () => Promise<T>): Promise<T> {
  return loaded ? loaded.tool(run, call, execute) : execute();
}

/** Sends the spans ended so far; the studio's shutdown and the tests wait for it. */
export async function flushTraces(): Promise<void> {
  await (await loading)?.flush();
}
