// Studio processes that share one PostgreSQL (DATABASE_URL, the path for more than one machine) tell each other
// about runs over LISTEN/NOTIFY: which runs stored new events (so a browser watching through another process sees
// them live), and the person's word on a run another process is driving (a decision, an answer, a stop), which only
// the driving process can act on. A word nobody answers within a moment means no process drives that run.
// On PGlite there is one process and no bus.
import { randomUUID } from "node:crypto";
import type { Channel } from "@/db/client";
import type { Decision, Person } from "./shapes";

export type Action =
  | { kind: "decide"; callId: string; decision: Decision; by: Person }
  | { kind: "answer"; callId: string; answer: string | null; by: Person }
  | { kind: "cancel"; by: Person }
  /** Whether any process drives the run (at start-up, before calling a run that was running failed). */
  | { kind: "ping" };

/** What the driving process says back: done, or the error its runtime answered. */
export type Reply = { handled: true; error: { kind: string; reason: string; message: string; details?: Record<string, unknown> } | null } | { handled: false };

type Message =
  | { t: "events"; from: string; runs: [string, number, string | null][] }
  | { t: "control"; from: string; id: string; runId: string; action: Action }
  | { t: "reply"; from: string; to: string; id: string; error: Extract<Reply, { handled: true }>["error"] };

/** NOTIFY payloads are limited to 8,000 bytes: runs are announced in groups well under it. */
const RUNS_PER_NOTICE = 100;
/** How long a word waits for the process driving the run. */
export const REPLY_MS = 1_500;

export type BusHandlers = {
  /** Another process stored events of these runs: the newest id of each, and its new status if it changed. */
  onEvents(runs: [string, number, string | null][]): void;
  /** The person's word on a run: act and return its error (null: done), or undefined when this process does not drive it. */
  onControl(runId: string, action: Action): Promise<Extract<Reply, { handled: true }>["error"] | undefined>;
};

export class RunBus {
  readonly self = randomUUID();
  private readonly waiting = new Map<string, (reply: Reply) => void>();
  private stop: (() => Promise<void>) | null = null;

  constructor(private readonly channel: Channel) {}

  async start(handlers: BusHandlers): Promise<void> {
    this.stop = await this.channel.listen((payload) => void this.receive(payload, handlers));
  }

  private async receive(payload: string, handlers: BusHandlers): Promise<void> {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (message.from === this.self) return;
    if (message.t === "events") handlers.onEvents(message.runs);
    else if (message.t === "reply" && message.to === this.self) this.waiting.get(message.id)?.({ handled: true, error: message.error });
    else if (message.t === "control") {
      const error = await handlers.onControl(message.runId, message.action).catch((err: Error) => ({ kind: "INTERNAL", reason: "FAILED", message: err.message }));
      if (error !== undefined) await this.send({ t: "reply", from: this.self, to: message.from, id: message.id, error });
    }
  }

  private send(message: Message): Promise<void> {
    return this.channel.notify(JSON.stringify(message)).catch(() => undefined);
  }

  /** Tell the other processes which runs stored events. */
  announce(runs: Map<string, { id: number; status: string | null }>): void {
    const all = [...runs.entries()].map(([runId, { id, status }]): [string, number, string | null] => [runId, id, status]);
    for (let i = 0; i < all.length; i += RUNS_PER_NOTICE) void this.send({ t: "events", from: this.self, runs: all.slice(i, i + RUNS_PER_NOTICE) });
  }

  /** Pass the person's word to whichever process drives the run; `handled: false` when none answers in time. */
  ask(runId: string, action: Action, waitMs = REPLY_MS): Promise<Reply> {
    const id = randomUUID();
    return new Promise<Reply>((resolve) => {
      const timer = setTimeout(() => done({ handled: false }), waitMs);
      const done = (reply: Reply) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(reply);
      };
      this.waiting.set(id, done);
      void this.send({ t: "control", from: this.self, id, runId, action });
    });
  }

  async close(): Promise<void> {
    await this.stop?.();
    this.stop = null;
    for (const done of this.waiting.values()) done({ handled: false });
  }
}
