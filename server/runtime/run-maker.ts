// How this process makes the Run of a row: fresh for one no process has begun, rebuilt from its events and journal
// to go on, begun from what it starts with; and a new run's row for the agent as it stands, on the tree its start
// chose (R-version-pinned). Every Run it makes shares this runtime's settings, log and MCP pool. Edit when what a
// Run is made from changes.
import type { Db } from "@/db/client";
import { mcpPool, type McpPool } from "@/server/mcp/pool";
import { begin, catalogFor, type Sources, type StartInput, type Who } from "./begin";
import type { RunCatalog } from "./catalog";
import type { EventLog, RunEvent } from "./events";
import type { JournalRow } from "./journal";
import { freshRun, rebuildRun, rebuiltRun } from "./rebuild";
import type { Run, RuntimeSettings } from "./run";
import type { ParentLink, SpecialistRuntime } from "./specialist-link";
import { agentForRun, insertRun, runRow, type RunRow, type Via } from "./store";
import { treeVersionFor, type RunTrees, type TreeChoice } from "./trees";

export type MakerParts = {
  db: Db;
  log: EventLog;
  trees: RunTrees;
  /** The working tree folder. */
  tree: string;
  dataDir: string;
  settings: RuntimeSettings;
  /** The MCP pool the options named; the process's own when none. */
  mcp?: McpPool;
  /** Where a run asks a specialist: the runtime itself. */
  specialists: SpecialistRuntime;
  /** The run queue this runtime takes part in, recorded on each run it writes (R-queue-sweep). */
  queue: string;
};

export class RunMaker {
  constructor(private readonly c: MakerParts) {}

  private deps(tree = this.c.tree): Run["deps"] {
    const { db, log, dataDir, settings, mcp, specialists } = this.c;
    return { db, log, tree, dataDir, settings, mcp, specialists };
  }

  private sources(tree = this.c.tree): Sources {
    return { db: this.c.db, tree, mcp: this.c.mcp ?? mcpPool() };
  }

  fresh(row: RunRow, tree: string): Run {
    return freshRun(row, this.deps(tree));
  }

  rebuilt(row: RunRow, events: RunEvent[], journal: JournalRow[], tree: string): Run {
    return rebuiltRun(row, events, this.deps(tree), journal);
  }

  /** The run read and rebuilt from the database, on its own tree. */
  async rebuild(runId: string): Promise<Run> {
    const tree = await this.c.trees.of(await runRow(this.c.db, runId));
    return rebuildRun(this.c.db, this.c.log, runId, this.deps(tree));
  }

  begin(run: Run, start: StartInput): Promise<void> {
    return begin(this.sources(run.deps.tree), run, start);
  }

  /** The run's row, for the agent as it stands. */
  async newRun(agentId: string, user: Who, via?: Via, parent?: ParentLink, tree: TreeChoice = "published"): Promise<RunRow> {
    const { declaration, version } = await agentForRun(this.c.db, agentId);
    const treeVersion = treeVersionFor(tree, parent?.runId);
    return insertRun(this.c.db, { agentId, agentVersion: version, declaration, startedBy: user.id, via, parent, treeVersion, queue: this.c.queue });
  }

  /** What a run of the agent started now would offer the model, read as a run reads it, without starting one. */
  async offered(agentId: string): Promise<{ agent: { id: string; name: string; version: number }; catalog: RunCatalog }> {
    const { declaration, version } = await agentForRun(this.c.db, agentId);
    // As the runs it starts read it: the latest published version (R-version-working).
    return { agent: { id: agentId, name: declaration.name, version }, catalog: await catalogFor(this.sources(await this.c.trees.latest()), declaration) };
  }
}
