// The clock a client's follow of a run keeps while the run waits on a person: a beat every so often (so a stream or
// a progress notification keeps the client), and the key's wait limit counted over every wait of the run, not each
// one (R-api-chat-wait, R-api-mcp-pending). The chat endpoint and the MCP endpoint both follow a run through this.
import type { EventData, RunEvent } from "@/server/runtime";

export type Paced = { kind: "event"; event: RunEvent } | { kind: "beat" } | { kind: "limit" };

export type Pace = { beatMs: number; waitLimitMs: number };

const TICK = Symbol("tick");

/**
 * The run's events as they come, with a beat every `beatMs` while its status is waiting and one `limit` once the
 * time spent waiting reaches `waitLimitMs`, after which it ends. A status event moves the clock before it is
 * handed on, so a consumer that says something at once on "waiting" has its next beat a whole `beatMs` later.
 */
export async function* paced(events: AsyncIterator<RunEvent>, pace: Pace): AsyncGenerator<Paced> {
  let waitingSince: number | null = null;
  let waited = 0;
  let lastBeat = 0;
  let timer: NodeJS.Timeout | undefined;
  try {
    let next = events.next();
    for (;;) {
      let got: IteratorResult<RunEvent> | typeof TICK;
      let limitDue = false;
      if (waitingSince === null) got = await next;
      else {
        const beatAt = lastBeat + pace.beatMs;
        const limitAt = waitingSince + pace.waitLimitMs - waited;
        limitDue = limitAt <= beatAt;
        const due = Math.min(beatAt, limitAt);
        got = await Promise.race([next, new Promise<typeof TICK>((resolve) => (timer = setTimeout(() => resolve(TICK), Math.max(0, due - Date.now()))))]);
        clearTimeout(timer);
      }
      if (got === TICK) {
        // A timer may fire a millisecond before Date.now() reaches its deadline, so the deadline it was set for
        // decides, not a fresh reading of the clock: one read would turn the limit into one more beat.
        if (limitDue) {
          yield { kind: "limit" };
          return;
        }
        lastBeat = Date.now();
        yield { kind: "beat" };
        continue;
      }
      if (got.done) return;
      next = events.next();
      if (got.value.type === "status") {
        const { status } = got.value.data as EventData["status"];
        if (status === "waiting") {
          if (waitingSince === null) waitingSince = Date.now();
          lastBeat = Date.now();
        } else if (waitingSince !== null) {
          waited += Date.now() - waitingSince;
          waitingSince = null;
        }
      }
      yield { kind: "event", event: got.value };
    }
  } finally {
    clearTimeout(timer);
  }
}
