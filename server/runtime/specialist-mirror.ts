// A specialist's run as the asking run shows it (R-spec-approvals): each of the specialist's calls mirrored under the
// asking call's card with an id of its own (`<asking call>/<its call>`); each of its waits (an approval, a question,
// a call that may have run) opened as a wait of the asking run, so that run shows waiting and can be decided; a
// decision there passed on to the specialist, and one given in the specialist's own run closing the mirrored wait. The specialist's end is the asking call's answer.
import { reportUnexpected } from "@/server/error-report";
import { DomainError } from "@/server/errors";
import { errorResult, type CallResult } from "@/server/host/protocol";
import type { SourceCall } from "@/server/calls";
import type { RunEvent } from "./events";
import type { Run, WaitAnswer } from "./run";
import type { EventData, Person, RunEventType } from "./shapes";
import type { SpecialistRuntime } from "./specialist-link";

type Kind = "approval" | "question" | "recovery";

/** Events about one call: mirrored with the call's id made the asking run's own. */
const CALL_EVENTS = new Set<RunEventType>(["tool_started", "progress", "tool_result", "specialist"]);

export class SpecialistMirror {
  private readonly waits = new Map<string, { childCallId: string; kind: Kind }>();
  private agentName = "the specialist";
  private reply = "";
  private stoppedBy: Person | null = null;

  constructor(
    private readonly run: Run,
    private readonly callId: string,
    private readonly childId: string,
    private readonly call: SourceCall,
    private readonly runtime: SpecialistRuntime,
  ) {}

  /** The specialist's events until its run ends; its end as this call's answer. */
  async follow(events: AsyncGenerator<RunEvent>): Promise<CallResult> {
    for await (const event of events) {
      const end = this.take(event);
      if (end) return end;
    }
    return errorResult(`The run of ${this.agentName} could no longer be followed, so its reply is unknown; its own run in /runs says how it ended.`);
  }

  /** Stop mirroring: waits still open end with this call (its run's stop has rejected them already). */
  close(): void {
    this.waits.clear();
  }

  private id(childCallId: string): string {
    return `${this.callId}/${childCallId}`;
  }

  private relay<T extends RunEventType>(type: T, data: EventData[T]): void {
    void this.run.emit(type, data);
  }

  private take(event: RunEvent): CallResult | null {
    switch (event.type) {
      case "run_started":
        this.agentName = `“${(event.data as EventData["run_started"]).agent.name}”`;
        return null;
      case "tool_call": {
        const data = event.data as EventData["tool_call"];
        this.relay("tool_call", { ...data, callId: this.id(data.callId), parent: data.parent ? this.id(data.parent) : this.callId });
        return null;
      }
      case "approval_requested":
      case "question_asked": {
        const data = event.data as EventData["approval_requested"] | EventData["question_asked"];
        // A request a specialist's tool made (ctx.io) stays under that tool's mirrored card.
        this.relay(event.type, { ...data, callId: this.id(data.callId), ...(data.parent ? { parent: this.id(data.parent) } : {}) } as never);
        this.open(this.id(data.callId), data.callId, event.type === "approval_requested" ? "approval" : "question");
        return null;
      }
      case "recovery_requested": {
        const data = event.data as EventData["recovery_requested"];
        const id = this.id(data.callId);
        // Its round, so a word given in this run is for this round of asking (R-journal-manual).
        this.run.recoveryRounds.set(id, data.round);
        // A call run again and asked about anew: the last round's word is not this one's.
        this.run.forgetSettled(id);
        this.relay("recovery_requested", { ...data, callId: id });
        this.open(id, data.callId, "recovery");
        return null;
      }
      case "recovery_decided": {
        const data = event.data as EventData["recovery_decided"];
        this.closed(this.id(data.callId), { action: data.action, by: data.by, ...(data.text !== undefined ? { text: data.text } : {}) });
        this.relay("recovery_decided", { ...data, callId: this.id(data.callId) });
        return null;
      }
      case "approval_decided": {
        const data = event.data as EventData["approval_decided"];
        this.closed(this.id(data.callId), { decision: data.decision, by: data.by, ...(data.note ? { note: data.note } : {}) });
        this.relay("approval_decided", { ...data, callId: this.id(data.callId) });
        return null;
      }
      case "question_answered": {
        const data = event.data as EventData["question_answered"];
        this.closed(this.id(data.callId), { answer: data.answer, by: data.by });
        this.relay("question_answered", { ...data, callId: this.id(data.callId) });
        return null;
      }
      case "message": {
        const data = event.data as EventData["message"];
        if (data.role === "assistant" && !data.prior) this.reply = data.text;
        return null;
      }
      case "cancelled":
        this.stoppedBy = (event.data as EventData["cancelled"]).by;
        return null;
      case "status":
        return this.ending(event.data as EventData["status"]);
      default:
        if (CALL_EVENTS.has(event.type)) {
          const data = event.data as { callId: string };
          this.relay(event.type, { ...data, callId: this.id(data.callId) } as never);
        }
        return null;
    }
  }

  private ending({ status, error }: EventData["status"]): CallResult | null {
    if (status === "done") {
      const text = this.reply.trim() ? this.reply : `${this.agentName} finished the task without writing a reply.`;
      return { content: [{ type: "text", text }], isError: false, outcome: "ok", durationMs: null, truncated: null };
    }
    if (status === "failed") return errorResult(`${this.agentName} could not finish the task: ${error ?? "its run failed"}`);
    if (status === "cancelled") {
      const who = this.stoppedBy?.name ?? "Someone";
      return errorResult(`${who} stopped the run of ${this.agentName} before it answered, so there is no reply; do not ask it again unless they ask you to.`);
    }
    return null;
  }

  /** The specialist waits on a person: so does this run, with the call's bound stopped meanwhile (R-call-wait-not-counted). */
  private open(id: string, childCallId: string, kind: Kind): void {
    this.waits.set(id, { childCallId, kind });
    const waiting = this.run.wait(id, kind);
    void this.call.waiting(() => waiting.then(() => undefined, () => undefined));
    waiting.then(
      (answer) => this.passOn(id, answer).catch((err: unknown) => void reportUnexpected(err, `passing a decision on to run ${this.childId}`)),
      () => undefined,
    );
  }

  /** A decision or an answer given in this run, passed on to the specialist's run. */
  private async passOn(id: string, answer: WaitAnswer): Promise<void> {
    const wait = this.waits.get(id);
    if (!wait) return;
    this.waits.delete(id);
    try {
      if ("decision" in answer) await this.runtime.decide(this.childId, wait.childCallId, answer.decision, answer.by, answer.note);
      else if ("answer" in answer) await this.runtime.answer(this.childId, wait.childCallId, answer.answer, answer.by);
      else await this.runtime.recover(this.childId, wait.childCallId, answer.action, answer.by, answer.text);
    } catch (err) {
      // Decided in its own run meanwhile, or stopped: nothing is left to pass on.
      if (!(err instanceof DomainError)) throw err;
    }
  }

  /** The specialist's wait ended (decided there, or here and passed on): this run's wait ends with it. */
  private closed(id: string, answer: WaitAnswer): void {
    const wait = this.waits.get(id);
    if (!wait) return;
    this.waits.delete(id);
    try {
      this.run.settle(id, wait.kind, answer);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
    }
  }
}
