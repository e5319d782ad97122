// Following one run for a chat completion: its text as the model streams it (each delta as it is published, the
// rest of a stored message if a delta was missed), a beat while it waits on a person, and how it ended. The wait is
// bounded by the key (R-api-chat-wait): past the limit the answer ends saying where the run waits, and the run
// keeps waiting. Streaming and whole answers both read this; edit when a run can end another way.
import type { EventData, RunEvent } from "@/server/runtime";
import { paced } from "./run-waits";

export type Usage = { input: number; output: number };

export type Wait = { kind: "approval" | "question" | "recovery"; callId: string; what: string };

export type Ending =
  | { reason: "done"; usage: Usage }
  | { reason: "wait-limit"; usage: Usage; message: string }
  | { reason: "failed" | "cancelled"; usage: Usage; message: string };

export type Step = { kind: "text"; text: string } | { kind: "waiting"; wait: Wait } | { kind: "end"; ending: Ending };

export type FollowOptions = {
  runId: string;
  /** The run's page in the studio, for the sentence that ends a wait past the limit. */
  runUrl: string;
  waitLimitMs: number;
  /** How often a beat is given while the run waits (the first comes at once). */
  beatMs: number;
  /** The run's events from its start, live until the signal aborts (Runtime.subscribe). */
  events: (signal: AbortSignal) => Promise<AsyncGenerator<RunEvent>>;
  signal: AbortSignal;
};

/** Where the run waits and how to go on, said as the answer's last words. */
export function waitingSentence(wait: Wait, runId: string, runUrl: string, others: number): string {
  const more = others > 0 ? ` (and ${others} more)` : "";
  if (wait.kind === "recovery") {
    return (
      `The call “${wait.what}”${more} may have run before the studio stopped (or it timed out), and the agent is waiting for someone to ` +
      `say what happened. Run it again, mark it as done or fail it in the studio at ${runUrl}, or through the runs API ` +
      `(POST /api/v1/runs/${runId}/recoveries); the run keeps waiting, and its reply will be there.`
    );
  }
  if (wait.kind === "question") {
    return (
      `The agent asked “${wait.what}”${more} and is waiting for an answer. Answer in the studio at ${runUrl}, or through ` +
      `the runs API (POST /api/v1/runs/${runId}/answers); the run keeps waiting, and its reply will be there.`
    );
  }
  return (
    `The agent is waiting for approval of “${wait.what}”${more} before it goes on. Approve or deny it in the studio at ${runUrl}, ` +
    `or through the runs API (POST /api/v1/runs/${runId}/decisions); the run keeps waiting, and its reply will be there.`
  );
}

/** Builds the answer's steps from the run's events; ends once, with the run or with the wait limit. */
export async function* follow(options: FollowOptions): AsyncGenerator<Step> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal.addEventListener("abort", onAbort);
  const events = await options.events(stop.signal);
  const usage: Usage = { input: 0, output: 0 };
  const waits = new Map<string, Wait>();
  /** The current message's text streamed so far, and whether an earlier message said anything. */
  let streamed = "";
  let spoke = false;
  let stoppedBy: string | null = null;

  /** A later message's text starts on a new paragraph, so two messages do not run together. */
  const say = (piece: string): Step[] => {
    if (!piece) return [];
    const out: Step[] = streamed === "" && spoke ? [{ kind: "text", text: "\n\n" }] : [];
    streamed += piece;
    return [...out, { kind: "text", text: piece }];
  };
  const first = (): Wait | undefined => waits.values().next().value;

  try {
    for await (const got of paced(events, options)) {
      if (got.kind === "limit") {
        const wait = first();
        const message = wait
          ? waitingSentence(wait, options.runId, options.runUrl, waits.size - 1)
          : `The run is waiting in the studio at ${options.runUrl}; it keeps waiting, and its reply will be there.`;
        yield { kind: "end", ending: { reason: "wait-limit", usage, message } };
        return;
      }
      if (got.kind === "beat") {
        const wait = first();
        if (wait) yield { kind: "waiting", wait };
        continue;
      }
      const event = got.event;
      switch (event.type) {
        case "delta":
          yield* say(String((event.data as EventData["delta"]).text ?? ""));
          break;
        case "message": {
          const m = event.data as EventData["message"];
          if (m.role !== "assistant" || m.prior) break;
          if (m.text.startsWith(streamed)) yield* say(m.text.slice(streamed.length));
          spoke ||= m.text.trim() !== "";
          streamed = "";
          usage.input += m.usage.input;
          usage.output += m.usage.output;
          break;
        }
        case "approval_requested": {
          const d = event.data as EventData["approval_requested"];
          waits.set(d.callId, { kind: "approval", callId: d.callId, what: d.title || d.operation });
          break;
        }
        case "question_asked": {
          const d = event.data as EventData["question_asked"];
          waits.set(d.callId, { kind: "question", callId: d.callId, what: d.question });
          break;
        }
        case "recovery_requested": {
          const d = event.data as EventData["recovery_requested"];
          waits.set(d.callId, { kind: "recovery", callId: d.callId, what: d.title || d.operation });
          break;
        }
        case "cancelled":
          stoppedBy = (event.data as EventData["cancelled"]).by.name;
          break;
        case "approval_decided":
        case "question_answered":
        case "recovery_decided":
        case "tool_result":
          waits.delete(String(event.data.callId));
          break;
        case "status": {
          const { status, error } = event.data as EventData["status"];
          const wait = first();
          if (status === "waiting" && wait) yield { kind: "waiting", wait };
          if (status === "done") {
            yield { kind: "end", ending: { reason: "done", usage } };
            return;
          }
          if (status === "failed" || status === "cancelled") {
            const message =
              status === "failed"
                ? (error ?? "The run failed; its trace in the studio says where.")
                : `The run was stopped${stoppedBy ? ` by ${stoppedBy}` : ""} before it finished its answer; what it had written is in the studio at ${options.runUrl}.`;
            yield { kind: "end", ending: { reason: status, usage, message } };
            return;
          }
          break;
        }
      }
    }
  } finally {
    options.signal.removeEventListener("abort", onAbort);
    stop.abort();
    await events.return(undefined);
  }
}
