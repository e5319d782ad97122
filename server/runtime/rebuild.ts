// A Run in memory from the database: new, for a row no process has begun, or rebuilt from its events and its journal
// of steps (replay.ts, R-journal-replay) to go on, in whichever process took its job (R-queue-lease) or when the person sends another message.
import type { Db } from "@/db/client";
import { DomainError } from "@/server/errors";
import type { EventLog, RunEvent } from "./events";
import { journalOf, type JournalRow } from "./journal";
import { catalogOf, replay, startOf } from "./replay";
import { Run } from "./run";
import { declarationOf, runRow, type RunRow } from "./store";

type Deps = Run["deps"];

/** A Run for a row no process has begun yet: its sources are read when it begins. */
export function freshRun(row: RunRow, deps: Deps): Run {
  const declaration = declarationOf(row.declaration);
  const agent = { id: row.agentId, name: declaration.name, version: row.agentVersion };
  return new Run(row.id, agent, declaration, row.startedBy, { tools: [], operations: [], withheld: [], problems: [] }, deps);
}

/** The run rebuilt from its stored events, in memory and ready to drive (not yet driven). */
export function rebuiltRun(row: RunRow, events: RunEvent[], deps: Deps, journal: JournalRow[] = []): Run {
  const started = startOf(events)!;
  const run = new Run(row.id, started.agent, declarationOf(row.declaration), row.startedBy, catalogOf(started), deps);
  run.clientSystem = started.system ?? null;
  run.clientCall = started.clientCall ?? null;
  run.status = row.status;
  replay(run, events, journal);
  return run;
}

/** The run read and rebuilt; refused when it never began. */
export async function rebuildRun(db: Db, log: EventLog, runId: string, deps: Deps): Promise<Run> {
  const row = await runRow(db, runId);
  const events = await log.stored(runId);
  const journal = await journalOf(db, runId);
  if (!startOf(events)) throw new DomainError("CONFLICT", "RUN_NOT_STARTED", "This run never got going, so it cannot be continued; start a new one.", { id: runId });
  return rebuiltRun(row, events, deps, journal);
}
