// Studio processes that share one PostgreSQL (DATABASE_URL) tell each other about runs over LISTEN/NOTIFY: which runs
// stored new events (so a browser watching through another process sees them live), that a person's word on a run
// was written (so the process holding the run acts on it at once, R-queue-word), and that a process took a run (so
// the one that started it stops waiting to drive it). Nothing waits for an answer: a notice that is lost costs only
// time, since the word is in the database and the holder reads it again on its next lease refresh. On PGlite there is
// one process and no bus.
import { randomUUID } from "node:crypto";
import type { Channel } from "@/db/client";

type Message =
  | { t: "events"; from: string; runs: [string, number, string | null][] }
  | { t: "word"; from: string; runId: string }
  | { t: "taken"; from: string; runId: string };

/** NOTIFY payloads are limited to 8,000 bytes: runs are announced in groups well under it. */
const RUNS_PER_NOTICE = 100;

export type BusHandlers = {
  /** Another process stored events of these runs: the newest id of each, and its new status if it changed. */
  onEvents(runs: [string, number, string | null][]): void;
  /** Another process wrote a person's word on the run. */
  onWord(runId: string): void;
  /** Another process took the run's job. */
  onTaken(runId: string): void;
};

export class RunBus {
  readonly self = randomUUID();
  private stop: (() => Promise<void>) | null = null;

  constructor(private readonly channel: Channel) {}

  async start(handlers: BusHandlers): Promise<void> {
    this.stop = await this.channel.listen((payload) => this.receive(payload, handlers));
  }

  private receive(payload: string, handlers: BusHandlers): void {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (message.from === this.self) return;
    if (message.t === "events") handlers.onEvents(message.runs);
    else if (message.t === "word") handlers.onWord(message.runId);
    else if (message.t === "taken") handlers.onTaken(message.runId);
  }

  private send(message: Message): Promise<void> {
    return this.channel.notify(JSON.stringify(message)).catch(() => undefined);
  }

  /** Tell the other processes which runs stored events. */
  announce(runs: Map<string, { id: number; status: string | null }>): void {
    const all = [...runs.entries()].map(([runId, { id, status }]): [string, number, string | null] => [runId, id, status]);
    for (let i = 0; i < all.length; i += RUNS_PER_NOTICE) void this.send({ t: "events", from: this.self, runs: all.slice(i, i + RUNS_PER_NOTICE) });
  }

  word(runId: string): Promise<void> {
    return this.send({ t: "word", from: this.self, runId });
  }

  taken(runId: string): Promise<void> {
    return this.send({ t: "taken", from: this.self, runId });
  }

  async close(): Promise<void> {
    await this.stop?.();
    this.stop = null;
  }
}
