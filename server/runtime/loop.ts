// The agent loop of one run: ask the model (its text streamed as deltas, the whole message stored), run the calls
// it made (dispatch.ts), give it the results, until it answers without calling anything. The model is opened
// once per segment of the run with its key resolved here; a model that cannot be reached, refuses the key or
// rate-limits ends the run as failed with one sentence. A run the person stops ends as cancelled: what the model
// had written is kept, and each call of the turn answers that it was stopped (dispatch.ts), so the turn ends as
// any other does and the run can be continued later.
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { driveClientCall } from "./client-call";
import { endModelTurn, keyCalls, startModelTurn } from "./journal";
import { prepare, recordCall, runTurn, type ModelCall } from "./dispatch";
import { callOptions, isRetryable, modelFailure, ModelProblem, type ModelSpec } from "@/server/models/open";
import { openRunModel } from "./models";
import { offerThisTurn, type Held } from "./offer";
import { attachPlan, providerTools, toPrompt } from "./prompt";
import type { ResultRecord, Run } from "./run";
import { reportUnexpected } from "@/server/error-report";
import { recordStep } from "@/server/metrics/studio";
import { runEnded, runFailed, traceChat, traceRun, tracingOn } from "@/server/telemetry";
import { RunStopped } from "./stopped";

type Reply = { text: string; calls: ModelCall[]; usage: { input: number; output: number }; modelMs: number; held?: Held[] };

/** The stop to unwind the loop with, once the run is stopped; `partial` is what the model had written by then. */
function stopOf(run: Run, partial = ""): RunStopped | null {
  if (run.abandoned) return new RunStopped("abandoned");
  if (run.cancelled) return new RunStopped("cancelled", run.cancelled.by, partial);
  return null;
}

/** The end of a stopped run: who stopped it, then the status. */
export async function endCancelled(run: Run): Promise<void> {
  await run.emit("cancelled", { by: run.cancelled!.by });
  await run.setStatus("cancelled", null);
}

async function readStream(run: Run, stream: ReadableStream<LanguageModelV4StreamPart>, got: { text: string }): Promise<Omit<Reply, "modelMs">> {
  const calls: ModelCall[] = [];
  const usage = { input: 0, output: 0 };
  const reader = stream.getReader();
  for (;;) {
    const { done, value: part } = await reader.read();
    if (done) break;
    switch (part.type) {
      case "text-delta":
        got.text += part.delta;
        run.delta(part.delta);
        break;
      case "tool-call":
        // One the provider ran itself (a BUILT_IN tool, R-builtin-provider) is its business: nothing runs it here.
        if (!part.providerExecuted) calls.push({ callId: part.toolCallId, name: part.toolName, input: part.input });
        break;
      case "finish":
        usage.input = part.usage.inputTokens.total ?? 0;
        usage.output = part.usage.outputTokens.total ?? 0;
        break;
      case "error":
        throw part.error;
    }
  }
  return { text: got.text, calls, usage };
}

/** One model request, retried after a rate limit or an unreachable provider as the runtime's settings say. */
async function ask(run: Run, model: LanguageModelV4, spec: ModelSpec, key: string | null): Promise<Reply> {
  attachPlan(run);
  const prompt = toPrompt(run);
  const offer = await offerThisTurn(run);
  const builtIns = run.catalog.operations.flatMap((op) => (op.provider ? [op.provider] : []));
  const tools = [...providerTools(offer.tools), ...builtIns];
  const { modelRetries, modelRetryMs } = run.deps.settings;
  for (let retry = 0; ; retry++) {
    const started = performance.now();
    const got = { text: "" };
    try {
      const { stream } = await model.doStream({
        prompt,
        tools: tools.length > 0 ? tools : undefined,
        toolChoice: tools.length > 0 ? { type: "auto" } : undefined,
        abortSignal: run.controller.signal,
        ...callOptions(spec),
      });
      const reply = await readStream(run, stream, got);
      return { ...reply, modelMs: performance.now() - started, ...(offer.held ? { held: offer.held } : {}) };
    } catch (err) {
      const stop = stopOf(run, got.text);
      if (stop) throw stop;
      if (!isRetryable(err) || retry >= modelRetries) throw new ModelProblem(modelFailure(err, spec, key));
      await new Promise((r) => setTimeout(r, modelRetryMs * 2 ** retry));
    }
  }
}

function check(run: Run, partial = ""): void {
  const stop = stopOf(run, partial);
  if (stop) throw stop;
  if (run.storageError) throw run.storageError;
}

/** Runs the loop until the model answers without a call, the run fails or is stopped, or the studio stops. */
export async function drive(run: Run): Promise<void> {
  try {
    if (tracingOn()) await traceRun(run);
    if (run.status !== "running" && !run.waiting && !run.cancelled) await run.setStatus("running");
    if (run.clientCall) return await driveClientCall(run);
    const { spec, model, key } = await openRunModel(run);
    let steps = 0;
    if (run.pendingTurn) {
      const results = await runTurn(run, run.pendingTurn);
      run.pendingTurn = null;
      run.transcript.push({ kind: "results", results });
    }
    for (;;) {
      check(run);
      if (++steps > run.deps.settings.maxSteps) {
        throw new ModelProblem(`The agent asked the model ${run.deps.settings.maxSteps} times for this message without finishing, so the run was stopped; send a narrower request.`);
      }
      const stepStarted = performance.now();
      // Each model turn is a step of the run's journal (R-journal-key); one in flight at a takeover is asked again.
      startModelTurn(run);
      const reply = tracingOn() ? await traceChat(run, () => ask(run, model, spec, key)) : await ask(run, model, spec, key);
      endModelTurn(run, reply.calls.length);
      check(run, reply.text);
      run.tokens.input += reply.usage.input;
      run.tokens.output += reply.usage.output;
      const prepared = reply.calls.map((call) => prepare(run, call));
      keyCalls(run, prepared);
      void run.emit("message", {
        role: "assistant",
        text: reply.text,
        calls: prepared.map((p, i) => ({ callId: p.callId, name: reply.calls[i]!.name, input: reply.calls[i]!.input })),
        usage: reply.usage,
        modelMs: Math.round(reply.modelMs),
        ...(reply.held ? { held: reply.held } : {}),
      });
      run.transcript.push({ kind: "assistant", text: reply.text, calls: prepared.map((p) => ({ callId: p.callId, name: p.name, input: p.args ?? {} })) });
      if (prepared.length === 0) {
        await run.storedSoFar();
        await run.setStatus("done");
        return;
      }
      // tool_call events reach the stream in the order the model made the calls, whichever finishes first.
      for (const p of prepared) void recordCall(run, p);
      run.pendingTurn = prepared;
      const results: ResultRecord[] = await runTurn(run, prepared);
      run.pendingTurn = null;
      run.transcript.push({ kind: "results", results });
      run.steps++;
      recordStep(performance.now() - stepStarted, reply.modelMs);
      run.deps.settings.onStep?.({
        runId: run.id,
        step: run.steps,
        ms: performance.now() - stepStarted,
        modelMs: reply.modelMs,
        toolMs: results.reduce((sum, r) => sum + r.durationMs, 0),
        calls: results.length,
      });
    }
  } catch (err) {
    if ((err instanceof RunStopped && err.reason === "abandoned") || run.abandoned) return;
    if (run.cancelled) {
      const partial = err instanceof RunStopped ? err.partial : "";
      // What the model had written stays in the conversation, as the person saw it stream.
      if (partial.trim()) void run.emit("message", { role: "assistant", text: partial, calls: [], usage: { input: 0, output: 0 }, modelMs: 0 });
      await endCancelled(run).catch(() => undefined);
      return;
    }
    // A model's problem is its own sentence; anything else is the studio's, told by an error id whose details only
    // the server log has (R-error-id): a failed write's message is its SQL and parameters.
    if (tracingOn()) runFailed(run, err);
    const unexpected = err instanceof ModelProblem ? null : reportUnexpected(err, `run ${run.id}`);
    const sentence =
      unexpected === null
        ? (err as ModelProblem).message
        : err === run.storageError
          ? `The run could not be stored; error id ${unexpected.id}; the server log has the details.`
          : `The run stopped on an error in the studio; error id ${unexpected.id}; the server log has the details.`;
    await run.setStatus("failed", sentence).catch(() => undefined);
  } finally {
    if (!run.abandoned) await run.deps.log.flushed();
    if (tracingOn()) runEnded(run);
  }
}
