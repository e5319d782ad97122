// The OpenTelemetry SDK side of run traces, imported only once tracing is on (R-otel-on): a tracer provider of its own
// (not the global one, so nothing else in the process starts sending spans), batching spans to the OTLP/HTTP exporter,
// which reads OTEL_EXPORTER_OTLP_* itself; the resource takes OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES as the
// SDK's env detector does. Spans are parented by passing contexts, without a global context manager (R-otel-spans).
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import {
  ATTR_GEN_AI_AGENT_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_AGENT_VERSION,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from "@opentelemetry/semantic-conventions/incubating";
import type { TracedCall, TracedReply, TracedResult, TracedRun } from "./shapes";

/** A run traced in this process: its span, the context its children start in, and its running calls' contexts. */
type Live = { span: Span; context: Context; tokens: { input: number; output: number }; failed: string | null; calls: Map<string, Context> };

export type Tracing = {
  runStarted(run: TracedRun): void;
  runFailed(run: TracedRun, err: unknown): void;
  runEnded(run: TracedRun): void;
  chat<T extends TracedReply>(run: TracedRun, ask: () => Promise<T>): Promise<T>;
  tool<T extends TracedResult>(run: TracedRun, call: TracedCall, execute: () => Promise<T>): Promise<T>;
  flush(): Promise<void>;
};

/** A low-cardinality name for what went wrong: the error's class, never its message (it may hold SQL or a value). */
function errorType(err: unknown): string {
  return err instanceof Error ? err.constructor.name || err.name : "Error";
}

/** A stop (the person's, or this process giving the run up) is how the run ended, not an error of the call. */
function stoppedAs(run: TracedRun): string | null {
  if (run.abandoned) return "abandoned";
  return run.cancelled ? "cancelled" : null;
}

function fail(span: Span, type: string): void {
  span.setAttribute(ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

export function openTracing(options: { content: boolean }): Tracing {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: "quiver" }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({ resource, spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })] });
  const tracer = provider.getTracer("quiver");
  const live = new WeakMap<TracedRun, Live>();
  // Content is masked with the run's own masker, as its events are (R-otel-content).
  const content = (run: TracedRun, value: unknown): string => run.mask(typeof value === "string" ? value : JSON.stringify(run.mask.deep(value)));

  return {
    runStarted(run) {
      const attributes: Attributes = {
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
        [ATTR_GEN_AI_AGENT_ID]: run.agent.id,
        [ATTR_GEN_AI_AGENT_NAME]: run.agent.name,
        [ATTR_GEN_AI_AGENT_VERSION]: String(run.agent.version),
        [ATTR_GEN_AI_CONVERSATION_ID]: run.id,
      };
      const span = tracer.startSpan(`${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${run.agent.name}`, { kind: SpanKind.INTERNAL, attributes }, ROOT_CONTEXT);
      live.set(run, { span, context: trace.setSpan(ROOT_CONTEXT, span), tokens: { ...run.tokens }, failed: null, calls: new Map() });
    },

    runFailed(run, err) {
      const state = live.get(run);
      if (state) state.failed = errorType(err);
    },

    runEnded(run) {
      const state = live.get(run);
      if (!state) return;
      live.delete(run);
      const { span } = state;
      if (run.model) span.setAttributes({ [ATTR_GEN_AI_PROVIDER_NAME]: run.model.provider, [ATTR_GEN_AI_REQUEST_MODEL]: run.model.model });
      // This process's share of the run's tokens: a run continued here counted its earlier ones elsewhere.
      span.setAttributes({
        [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: run.tokens.input - state.tokens.input,
        [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: run.tokens.output - state.tokens.output,
        "quiver.run.status": stoppedAs(run) === "abandoned" ? "abandoned" : run.status,
      });
      if (run.status === "failed" && !run.abandoned) fail(span, state.failed ?? "failed");
      span.end();
    },

    async chat(run, ask) {
      const state = live.get(run);
      if (!state) return ask();
      const model = run.model?.model ?? "";
      const span = tracer.startSpan(
        `${GEN_AI_OPERATION_NAME_VALUE_CHAT} ${model}`.trim(),
        {
          kind: SpanKind.CLIENT,
          attributes: {
            [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
            ...(run.model ? { [ATTR_GEN_AI_PROVIDER_NAME]: run.model.provider, [ATTR_GEN_AI_REQUEST_MODEL]: model } : {}),
            [ATTR_GEN_AI_AGENT_ID]: run.agent.id,
            [ATTR_GEN_AI_AGENT_NAME]: run.agent.name,
            [ATTR_GEN_AI_CONVERSATION_ID]: run.id,
          },
        },
        state.context,
      );
      try {
        const reply = await ask();
        span.setAttributes({ [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: reply.usage.input, [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: reply.usage.output });
        if (options.content) {
          const parts = [
            ...(reply.text ? [{ type: "text", content: reply.text }] : []),
            ...reply.calls.map((c) => ({ type: "tool_call", id: c.callId, name: c.name, arguments: c.input })),
          ];
          span.setAttribute(ATTR_GEN_AI_OUTPUT_MESSAGES, content(run, [{ role: "assistant", parts }]));
        }
        return reply;
      } catch (err) {
        endedBy(span, run, err);
        throw err;
      } finally {
        span.end();
      }
    },

    async tool(run, call, execute) {
      const state = live.get(run);
      if (!state) return execute();
      const parent = (call.parent && state.calls.get(call.parent)) || state.context;
      const attributes: Attributes = {
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
        [ATTR_GEN_AI_TOOL_NAME]: call.name,
        [ATTR_GEN_AI_TOOL_CALL_ID]: call.callId,
        [ATTR_GEN_AI_TOOL_TYPE]: "function",
      };
      if (options.content && call.args) attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = content(run, call.args);
      const span = tracer.startSpan(`${GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${call.name}`, { kind: SpanKind.INTERNAL, attributes }, parent);
      state.calls.set(call.callId, trace.setSpan(parent, span));
      try {
        const result = await execute();
        span.setAttributes({ "quiver.tool.outcome": result.outcome, "quiver.tool.attempts": result.attempts });
        if (options.content) span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, content(run, result.text));
        if (result.outcome !== "ok") fail(span, result.outcome);
        return result;
      } catch (err) {
        endedBy(span, run, err);
        throw err;
      } finally {
        state.calls.delete(call.callId);
        span.end();
      }
    },

    flush: () => provider.forceFlush(),
  };
}

/** A request or call cut short by a person's stop is marked stopped, not failed. */
function endedBy(span: Span, run: TracedRun, err: unknown): void {
  const stop = stoppedAs(run);
  if (stop) span.setAttribute("quiver.stopped", stop);
  else fail(span, errorType(err));
}
