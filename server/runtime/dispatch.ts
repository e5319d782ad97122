// The calls of one turn, from what the model wrote to what it is told (docs/rules.md, The loop around
// a call): each name matched (exact, or repaired when only formatting differs), each call's arguments parsed and
// checked against its schema, a call the agent was not given refused; then permission (ALLOW / ASK / DENY, session
// grants), dedupe, the call with its bound and retries, voice lines and progress, the output cap, masking, the
// audit row. Concurrent operations run together and the rest one at a time in the order asked; results come back
// in call order.
import { explicitPermission, mayRun } from "@/server/agents/permissions";
import type { StudioRequest } from "@/server/host";
import { parseArguments, withDefaults } from "./arguments";
import { auditCall } from "./audit";
import { askThePerson, workFolder } from "./context";
import { attempt, type Attempt } from "./execute";
import { consultHook, hookRefusal } from "./hook";
import { askPerCall, concurrentNow, destructiveNow } from "./call-behaviour";
import { answerIoRequest } from "./io-requests";
import { answerSourceRequest, answerSystemRequest, prepareSourceIndex, type Nested } from "./source-requests";
import { matchName, transcriptName, withheldName } from "./names";
import { dispatchable, neverOffered } from "./offer";
import { adoptHostCut, capOutput } from "./kept-results";
import { boundOf, dedupeKey, mayRetry } from "./policy";
import type { PreparedCall, ResultRecord, Run } from "./run";
import { speak } from "./voice";
import { idempotencyKey } from "./journal";
import { recover, recoversTimeout, storeKept, waitsForPerson } from "./journal-recovery";
import { recordToolCall } from "@/server/metrics/studio";
import { traceTool, tracingOn } from "@/server/telemetry";

export type ModelCall = { callId: string; name: string; input: string };

export const DENIED =
  "The person running this agent denied this call, so it did not run. Do not call it again unless they ask you to; carry on without it, or say what you could not do.";

export const STOPPED_BEFORE =
  "The person running this agent stopped the run before this call ran, so it did not run. Do not call it again unless they ask you to.";

export const RESTARTED = "The studio restarted while this call ran, so its result is unknown; check whether it took effect before calling it again.";

/** A call id unique in the run, keeping the provider's where it can. */
function uniqueId(run: Run, id: string): string {
  let unique = id || "call";
  for (let n = 2; run.callIds.has(unique); n++) unique = `${id}-${n}`;
  run.callIds.add(unique);
  return unique;
}

/** What the model's call names and asks, before anything runs. */
export function prepare(run: Run, call: ModelCall): PreparedCall {
  const callId = uniqueId(run, call.callId);
  const offered = dispatchable(run);
  const match = matchName(call.name, offered, run.catalog.withheld);
  const base = { callId, called: call.name, name: transcriptName(call.name), op: null, args: null };
  const unseen = match.kind === "unknown" ? neverOffered(run, call.name) : null;
  if (unseen) return { ...base, early: { outcome: "refused", text: unseen } };
  if (match.kind === "unknown") return { ...base, early: { outcome: "refused", text: match.message } };
  if (match.kind === "withheld") return { ...base, early: { outcome: "refused", text: withheldName(match.name, offered) } };
  const op = run.operation(match.name)!;
  const parsed = parseArguments(call.input, op.name, op.input_schema);
  if (!parsed.ok) return { ...base, name: op.name, op, args: parsed.sent ?? null, early: { outcome: "refused", text: parsed.message } };
  return { ...base, name: op.name, op, args: parsed.args, early: null };
}

/** The call as the model made it, before anything runs: tool_call events go out in call order. */
export function recordCall(run: Run, p: PreparedCall): Promise<unknown> {
  return run.emit("tool_call", {
    ...(p.parent ? { parent: p.parent } : {}),
    callId: p.callId,
    name: p.called,
    operation: p.op?.name ?? null,
    title: p.op?.title ?? null,
    repaired: p.op !== null && p.op.name !== p.called,
    args: p.args,
    risk: p.op?.risk ?? null,
    concurrent: p.op?.concurrent ?? false,
  });
}

function record(p: PreparedCall, result: Omit<ResultRecord, "callId" | "operation" | "name"> & Partial<ResultRecord>): ResultRecord {
  return { ...result, callId: p.callId, operation: p.op?.name ?? null, name: p.name };
}

const refused = (text: string): Omit<ResultRecord, "callId" | "operation" | "name"> => ({
  outcome: "refused",
  text,
  images: [],
  truncated: null,
  durationMs: 0,
  attempts: 0,
  deduped: false,
});

/** Finish a call: cap and mask what the model reads, store the result, write the audit row. */
async function settle(run: Run, p: PreparedCall, result: ResultRecord): Promise<ResultRecord> {
  // A tree tool's cut result moves into the agent's working folder first (R-cut-run), then the cap applies to all.
  // The folder is worked out only when something is kept there: most results fit (R-call-path-lean).
  const where = { get folder() { return workFolder(run); }, dataDir: run.deps.dataDir, runId: run.id, tree: run.deps.tree };
  const text = run.mask(result.text);
  const adopted = result.truncated === null ? { text, kept: null } : await adoptHostCut(where, text, result.truncated, (t) => run.mask(t));
  const cap = run.declaration.policy.output_cap;
  const capped = adopted.text.length <= cap ? { text: adopted.text, kept: null } : await capOutput(adopted.text, cap, where);
  const final: ResultRecord = {
    ...result,
    text: capped.text,
    truncated: capped.kept ?? adopted.kept ?? (result.truncated === null ? null : run.mask(result.truncated)),
  };
  // The journal's row of a call that was dispatched gets its result (R-journal-started), also one a person gave it
  // (R-journal-manual), so a later takeover does not ask again; a call never dispatched has no row to update. The
  // result rides in the statement of its tool_result event (R-journal-in-events), so it lands after the call's row,
  // and it is written with that row when the row was still waiting (a read-only call, R-journal-safe-at-once).
  const journaled = p.step && !final.deduped && (final.attempts > 0 || p.resumed?.started || p.op?.replay === "manual");
  const answered = journaled ? { runId: run.id, key: p.step!, result: { ...final, name: p.name }, at: new Date() } : undefined;
  // Stored in the order emitted, in batches; the loop does not wait for the write.
  void run.emit(
    "tool_result",
    {
      callId: final.callId,
      operation: final.operation,
      outcome: final.outcome,
      text: final.text,
      images: final.images,
      truncated: final.truncated,
      durationMs: final.durationMs,
      attempts: final.attempts,
      deduped: final.deduped,
    },
    answered,
  );
  if (p.op && !final.deduped) await auditCall(run, p.op, p.callId, final.outcome, final.attempts, final.text);
  return final;
}

/** Whether the call may run now: ALLOW runs, DENY refuses, ASK waits for the person (never on the call's clock). */
async function permitted(run: Run, p: PreparedCall): Promise<string | null> {
  const op = p.op!;
  if (p.resumed?.approved) return null;
  const entry = run.declaration.tools[op.entry]!;
  // An MCP tool renamed in this agent (R-mcp-names) keeps the permission set under its name in the source.
  const explicit = explicitPermission(op.source, op.name, entry.permissions) ?? (op.mcp ? (entry.permissions[op.mcp.operation] ?? null) : null);
  // A tool its server marks destructive asks first unless the builder chose otherwise (R-mcp-behaviour).
  const destructive = destructiveNow(p) && explicit === null && run.declaration.policy.permission === "ALLOW";
  const decided = mayRun({
    explicit,
    agentDefault: destructive ? "ASK" : run.declaration.policy.permission,
    sessionGrant: run.grants.has(op.name),
    canAsk: run.deps.settings.canAsk,
  });
  const decision = destructive && decided.action !== "run" ? { ...decided, reason: decided.reason.replace("the agent's default", op.kind === "mcp" ? "its server, which marks it destructive" : "its tool, which says this call is destructive") } : decided;
  if (decision.action === "refuse") return `${op.name} was refused and did not run: ${decision.reason}`;
  const hook = p.resumed?.asked === "approval" ? null : await consultHook(run, p);
  if (hook?.decision === "refuse") return hookRefusal(op.name, hook);
  let reason = decision.reason;
  let grantable = p.resumed?.grantable ?? true;
  if (hook?.decision === "ask") {
    if (!run.deps.settings.canAsk) return `${op.name} was refused and did not run: the call hook asks for approval, and nobody can approve calls in this run.`;
    reason = `The call hook (hooks/tools.py) asks for approval${hook.reason ? `: ${hook.reason}` : "."}`;
    grantable = false;
  } else if (decision.action === "run" || (hook?.decision === "allow" && explicit !== "ASK")) {
    return null;
  }
  if (p.resumed?.asked !== "approval") {
    await run.emit("approval_requested", { callId: p.callId, operation: op.name, title: op.title, args: p.args!, reason, grantable });
  }
  const answer = await run.wait(p.callId, "approval");
  if (!("decision" in answer)) return DENIED;
  await run.emit("approval_decided", { callId: p.callId, decision: answer.decision, by: answer.by });
  if (answer.decision === "deny") return DENIED;
  if (answer.decision === "always" && grantable) run.grants.add(op.name);
  return null;
}

/** The call itself: its bound, retries on a transient outcome where the replay policy allows, voice and progress. */
async function execute(run: Run, p: PreparedCall): Promise<Omit<ResultRecord, "callId" | "operation" | "name">> {
  const op = p.op!;
  const args = op.kind === "system" ? withDefaults(p.args!, op.input_schema) : p.args!;
  const bound = boundOf(op, run.declaration.policy, p.args!);
  const say = (kind: "progress" | "announce" | "heartbeat" | "complete" | "fail", message: string) => void run.emit("progress", { callId: p.callId, kind, message });
  const voice = speak(op.voice, { interactive: op.interactive, timing: run.deps.settings.voice, say });
  const started = performance.now();
  let result: Attempt;
  let attempts = 0;
  const idempotency = p.step ? idempotencyKey(run.id, p.step) : undefined;
  for (;;) {
    attempts++;
    // Waited for: events are stored in order, so the model's message and this call's tool_call are stored too. A
    // takeover that did not find them would ask the model again and dispatch the call anew (R-journal-started). The
    // first one carries the call's journal row in its own statement (R-journal-with-event): a process taking the run
    // over knows it may have run.
    const startedEvent = { callId: p.callId, operation: op.name, attempt: attempts, timeoutS: bound };
    if (p.step && attempts === 1 && op.replay === "safe") {
      // A read-only call has no effect to record first: it is dispatched at once (R-journal-safe-at-once).
      // A write that fails is kept as the run's storage error, which ends it at its next step.
      run.emitStarted(startedEvent, p.step, op.name, false).catch(() => undefined);
    } else {
      await (p.step && attempts === 1 ? run.emitStarted(startedEvent, p.step, op.name) : run.emit("tool_started", startedEvent));
    }
    result = await attempt(run, op, p.callId, args, bound, {
      resumed: p.resumed?.asked === "question" && attempts === 1,
      idempotencyKey: idempotency,
      onProgress: (m) => say("progress", m),
      onStudioRequest: op.kind === "tree" ? (request) => answerStudioRequest(run, p, request) : undefined,
      // A compute_exec program's quiver.sources calls (R-code-import), each nested under this call.
      onSourceRequest: op.kind === "system" && op.name === "compute_exec" ? (request) => answerSourceRequest(run, p.callId, request, nested(run)) : undefined,
    });
    // A safe or idempotent call that timed out is retried as a transient failure is (R-journal-timeout).
    if ((result.outcome !== "transient" && result.outcome !== "timeout") || !mayRetry(op) || attempts > run.declaration.policy.retry || run.cancelled) break;
    await new Promise((r) => setTimeout(r, run.deps.settings.retryMs * attempts));
  }
  voice.end(result.outcome);
  recordToolCall(op.kind, result.outcome, performance.now() - started);
  return { ...result, durationMs: Math.round(performance.now() - started), attempts, deduped: false };
}

/** How a nested call (ctx.system, quiver.sources) is made: recorded under its parent, then put through every rule. */
function nested(run: Run): Nested {
  return { uniqueId: (id) => uniqueId(run, id), perform: async (p) => (await recordCall(run, p), perform(run, p)) };
}

/**
 * What a running tree tool asks the studio (R-loop-ctx-system, R-loop-ctx-ask): `ctx.system.<source>.<operation>(...)` is a call of its own,
 * shown under the tool's card and put through every rule a model's call meets (the agent must have been given the
 * operation, its permission, the hook, its bound, the audit row); `ctx.ask(...)` puts the question to the person
 * on the tool's card, as ask_user does.
 */
async function answerStudioRequest(run: Run, parent: PreparedCall, request: StudioRequest): Promise<Record<string, unknown>> {
  if (request.method === "quiver/ask") {
    return { answer: await askThePerson(run, parent.callId, request.params.question, request.params.choices, false) };
  }
  if (request.method === "quiver/io") return answerIoRequest(run, parent, request.params);
  return answerSystemRequest(run, parent.callId, request.params, nested(run));
}

/** One call through every rule, as an execute_tool span when runs are traced (R-otel-spans); one answered before a takeover has its span there. */
const perform = (run: Run, p: PreparedCall) => (tracingOn() && !p.resumed?.result ? traceTool(run, p, () => performCall(run, p)) : performCall(run, p));

/** One call through every rule, answered once. */
async function performCall(run: Run, p: PreparedCall): Promise<ResultRecord> {
  if (p.resumed?.result) return p.resumed.journaled ? storeKept(run, p.resumed.result) : p.resumed.result;
  if (p.early) return settle(run, p, record(p, refused(p.early.text)));
  // A call that started and has no result follows its replay policy (R-journal-replay): `manual` waits for the
  // person; `safe` and `idempotent` run again below, an idempotent one under the same key.
  if (p.resumed?.asked === "recovery" || (p.resumed?.started && p.op?.replay === "manual")) {
    if (!waitsForPerson(run, p)) return settle(run, p, record(p, { ...refused(RESTARTED), outcome: "failed" }));
    return settle(run, p, record(p, await recover(run, p, "restarted", () => execute(run, p))));
  }
  const op = p.op!;
  const key = run.declaration.policy.dedupe ? dedupeKey(op.name, p.args!) : null;
  const first = key ? run.dedupe.get(key) : undefined;
  if (first) {
    const earlier = await first;
    return settle(run, p, record(p, { ...earlier, durationMs: 0, attempts: 0, deduped: true }));
  }
  if (run.cancelled) return settle(run, p, record(p, refused(STOPPED_BEFORE)));
  const work = (async () => {
    const refusal = await permitted(run, p).catch((err: unknown) => {
      // A stop ends the wait for approval unanswered.
      if (run.cancelled) return STOPPED_BEFORE;
      throw err;
    });
    if (refusal !== null) return record(p, refused(refusal));
    if (run.cancelled) return record(p, refused(STOPPED_BEFORE));
    const done = await execute(run, p);
    // A manual call that timed out may have run: the person says what happened (R-journal-timeout).
    if (done.outcome === "timeout" && recoversTimeout(run, p) && !run.cancelled) return record(p, await recover(run, p, "timeout", () => execute(run, p)));
    return record(p, done);
  })();
  if (key) {
    run.dedupe.set(key, work);
    // Only a call that ran is returned again; a refused one is asked afresh.
    void work.then((r) => r.attempts === 0 && run.dedupe.delete(key), () => run.dedupe.delete(key));
  }
  return settle(run, p, await work);
}

/**
 * The turn: concurrent operations start at once, the others one at a time in the order the model made them,
 * alongside the concurrent ones (R-loop-concurrency), taking turns with those of the run's asker and specialists
 * (R-spec-serial); the results in call order (R-loop-result-order).
 */
export async function runTurn(run: Run, prepared: PreparedCall[]): Promise<ResultRecord[]> {
  await prepareSourceIndex(run);
  await askPerCall(run, prepared);
  const lane = run.lane;
  const running = prepared.map((p) => {
    if (!p.op || p.early || concurrentNow(p)) return perform(run, p);
    const mine = lane.tail.then(() => perform(run, p));
    lane.tail = mine.catch(() => undefined);
    return mine;
  });
  return Promise.all(running);
}
