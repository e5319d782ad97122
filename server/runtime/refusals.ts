// The runtime's refusals of what a person asked of a run, each a sentence saying what to do instead.
import type { RunStatus } from "@/db/schema";
import { DomainError } from "@/server/errors";

export function busy(id: string, status: RunStatus): DomainError {
  return new DomainError(
    "CONFLICT",
    "RUN_BUSY",
    status === "waiting"
      ? "This run is waiting for an approval or an answer; give it first, then send your message."
      : "This run is still working; wait for it to finish, then send your message.",
    { id, status },
  );
}

export function oneCall(id: string): DomainError {
  return new DomainError(
    "CONFLICT",
    "ONE_CALL_RUN",
    "This run is one call a client made of one of the agent's tools, not a conversation, so it cannot be continued; start a new run to talk to the agent.",
    { id },
  );
}

export function ended(id: string, status: RunStatus): DomainError {
  return new DomainError("CONFLICT", "RUN_ENDED", "This run has already ended, so there is nothing to stop; send a message to continue it.", { id, status });
}
