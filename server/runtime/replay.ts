// A run rebuilt from its run_events, to continue it: after a restart (a run waiting for approval waits on), or when
// the person sends another message. The conversation, the grants, the plan, the dedupe cache and the tokens come
// back as they were; the calls of an unfinished turn come back with what already happened to each, so none is
// asked twice and none that was running when the studio stopped is run again unasked: its journal (run_steps) says
// which calls had started and what answered though its event was never stored, and each started call without a
// result follows its replay policy (dispatch.ts, R-journal-replay).
import type { RunCatalog } from "./catalog";
import { prepare, type ModelCall } from "./dispatch";
import type { RunEvent } from "./events";
import { noteOffered } from "./offer";
import { dedupeKey } from "./policy";
import { attachPlan } from "./prompt";
import { keyCalls, type JournalRow } from "./journal";
import type { PreparedCall, ResultRecord, Run, WaitKind } from "./run";
import type { EventData, Todo } from "./shapes";

/** The run's catalog and agent as its first event recorded them. */
export function startOf(events: RunEvent[]): EventData["run_started"] | null {
  const first = events.find((e) => e.type === "run_started");
  return first ? (first.data as EventData["run_started"]) : null;
}

export function catalogOf(started: EventData["run_started"]): RunCatalog {
  return { tools: started.tools, operations: started.operations, withheld: started.withheld, problems: started.problems };
}

export function replay(run: Run, events: RunEvent[], journal: JournalRow[] = []): void {
  let open: PreparedCall[] | null = null;
  const results = new Map<string, ResultRecord>();
  const asked = new Map<string, WaitKind>();
  const rounds = new Map<string, number>();
  const approved = new Set<string>();
  /** Calls the call hook asked about: only they themselves can be approved, never the operation for the run. */
  const onlyOnce = new Set<string>();
  const started = new Set<string>();

  const close = () => {
    if (open && open.every((p) => results.has(p.callId))) {
      run.transcript.push({ kind: "results", results: open.map((p) => results.get(p.callId)!) });
      open = null;
    }
  };

  for (const event of events) {
    const data = event.data as Record<string, unknown>;
    switch (event.type) {
      case "run_started":
        // A client's one call is the run's only turn, as a model's message with calls would be.
        if (run.clientCall) {
          run.journalStep = 1;
          open = [prepare(run, run.clientCall)];
          keyCalls(run, open);
        }
        break;
      case "message": {
        const message = data as EventData["message"];
        if (message.role === "user") {
          run.transcript.push({ kind: "user", text: message.text });
          break;
        }
        attachPlan(run);
        noteOffered(run, message.held);
        run.tokens.input += message.usage.input;
        run.tokens.output += message.usage.output;
        run.journalStep++;
        const prepared = message.calls.map((call: ModelCall) => prepare(run, call));
        keyCalls(run, prepared);
        run.transcript.push({ kind: "assistant", text: message.text, calls: prepared.map((p) => ({ callId: p.callId, name: p.name, input: p.args ?? {} })) });
        open = prepared.length > 0 ? prepared : null;
        break;
      }
      case "approval_requested":
        asked.set(String(data.callId), "approval");
        if (data.grantable === false) onlyOnce.add(String(data.callId));
        break;
      case "question_asked":
        asked.set(String(data.callId), "question");
        break;
      case "approval_decided": {
        const decided = data as EventData["approval_decided"];
        asked.delete(decided.callId);
        if (decided.decision !== "deny") approved.add(decided.callId);
        if (decided.decision === "always" && !onlyOnce.has(decided.callId)) {
          const call = open?.find((p) => p.callId === decided.callId);
          if (call?.op) run.grants.add(call.op.name);
        }
        break;
      }
      case "question_answered":
        asked.delete(String(data.callId));
        break;
      case "recovery_requested":
        asked.set(String(data.callId), "recovery");
        rounds.set(String(data.callId), Number(data.round));
        break;
      case "recovery_decided":
        asked.delete(String(data.callId));
        break;
      case "tool_started":
        started.add(String(data.callId));
        break;
      case "tool_result": {
        const result = data as EventData["tool_result"];
        const call = open?.find((p) => p.callId === result.callId);
        const record: ResultRecord = { ...result, name: call?.name ?? "unknown_tool" };
        results.set(result.callId, record);
        if (run.declaration.policy.dedupe && call?.op && call.args && result.attempts > 0) {
          run.dedupe.set(dedupeKey(call.op.name, call.args), Promise.resolve(record));
        }
        close();
        break;
      }
      case "todos":
        run.todos = (data.todos as Todo[]) ?? [];
        break;
    }
  }

  if (open) {
    // A call's row is its own when its step key and its id both match (a model turn asked again makes new calls).
    const rows = new Map(journal.map((row) => [`${row.step}/${row.index}/${row.callId}`, row]));
    const steps = new Map((open as PreparedCall[]).flatMap((p) => {
      const row = p.step ? rows.get(`${p.step.step}/${p.step.index}/${p.callId}`) : undefined;
      return row ? [[p.callId, row] as const] : [];
    }));
    for (const [callId, round] of rounds) run.recoveryRounds.set(callId, round);
    // A tree tool waiting on the person (ctx.ask) lived in the tool host, which stopped with the studio: the call
    // is lost like one that was running, and its question is closed rather than waited on.
    const lost = (p: PreparedCall) => p.op?.kind === "tree" && asked.get(p.callId) === "question";
    run.pendingTurn = (open as PreparedCall[]).map((p) => ({
      ...p,
      resumed: {
        asked: lost(p) ? null : (asked.get(p.callId) ?? null),
        approved: approved.has(p.callId),
        grantable: !onlyOnce.has(p.callId),
        // A call that had started and is not waiting on the person was running when the studio stopped.
        started: (started.has(p.callId) || steps.has(p.callId)) && (!asked.has(p.callId) || asked.get(p.callId) === "recovery" || lost(p)),
        result: results.get(p.callId) ?? steps.get(p.callId)?.result ?? null,
        journaled: !results.has(p.callId) && !!steps.get(p.callId)?.result,
      },
    }));
    // The waits open when the studio stopped are open again at once, so a decision can arrive before the loop does.
    // Only the model's own calls: one a tree tool made through ctx.system went with that tool.
    for (const p of run.pendingTurn) if (p.resumed?.asked) void run.wait(p.callId, p.resumed.asked);
  }
}
