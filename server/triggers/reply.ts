// A webhook sent with ?wait=1 (R-trigger-webhook-wait): the run followed through its events until it ends or waits on
// a person, at most the wait limit, so the sender gets the agent's reply in the answer when it comes in time and the
// run's id either way. The run goes on whatever the wait gives up on.
import type { EventData, Runtime } from "@/server/runtime";

/** The longest a webhook's request is held open for its reply. */
export const WAIT_LIMIT_MS = 60_000;

export type Outcome =
  | { status: "done"; reply: string }
  | { status: "failed" | "cancelled"; error: string | null }
  | { status: "waiting" | "running" };

/** How the run stands once it ended, stopped for a person, or `limitMs` passed (then "running"). */
export async function waitForReply(runtime: Pick<Runtime, "subscribe">, runId: string, limitMs = WAIT_LIMIT_MS, signal?: AbortSignal): Promise<Outcome> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), limitMs);
  const onLeave = () => stop.abort();
  signal?.addEventListener("abort", onLeave);
  let reply = "";
  try {
    for await (const event of await runtime.subscribe(runId, null, stop.signal)) {
      if (event.type === "message") {
        const message = event.data as EventData["message"];
        // The last words the agent said are its reply; earlier ones came before its tool calls.
        if (message.role === "assistant" && !message.prior && message.text.trim() !== "") reply = message.text;
        continue;
      }
      if (event.type !== "status") continue;
      const { status, error } = event.data as EventData["status"];
      if (status === "done") return { status, reply };
      if (status === "failed" || status === "cancelled") return { status, error };
      if (status === "waiting") return { status };
    }
    return { status: "running" };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onLeave);
    stop.abort();
  }
}
