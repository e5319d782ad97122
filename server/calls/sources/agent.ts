// Another agent's ask tool as a call target (R-spec-run): the model's message handed to whoever runs the
// specialist's task (the runtime, which starts it as a run of its own), under the call's bound and stop like any
// call. The target knows nothing of runs, so the pipeline stays the same for every kind of source.
import { errorResult, type CallResult } from "@/server/host/protocol";
import type { CallTarget, SourceCall } from "../target";

/** Runs the specialist's task for this message and answers its reply; rejects with the call's signal's reason when stopped. */
export type AskSpecialist = (message: string, call: SourceCall) => Promise<CallResult>;

export function agentTarget(name: string, ask: AskSpecialist): CallTarget {
  return {
    name,
    graceMs: 0,
    invoke(args, call) {
      const message = typeof args.message === "string" ? args.message.trim() : "";
      if (message === "") {
        return Promise.resolve(errorResult(`${name} needs a message: write the task and everything the agent needs to know in "message".`, "refused"));
      }
      return ask(message, call);
    },
  };
}
