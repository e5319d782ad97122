// The runtime's face: start a run, continue it, stop it, decide an approval, answer a question, watch its events,
// and the lifecycle of the loops this process drives (one Runtime per process holds them in memory). Other
// processes sharing the database are coordination.ts's business, a restart's leftovers recovery.ts's, and the
// list and trace of runs queries.ts's; this class only routes to them. Edit when what a person can do to a run changes.
import type { Db } from "@/db/client";
import type { RunStatus } from "@/db/schema";
import type { Channel } from "@/db/client";
import { DomainError } from "@/server/errors";
import { mcpPool, type McpPool } from "@/server/mcp/pool";
import type { AgentDeclaration } from "@/server/agents/declaration";
import { agentsIn } from "@/server/agents/specialists-entry";
import { mcpServersOf, readSources, runCatalog, type RunCatalog } from "./catalog";
import { prepareRoots } from "./context";
import { Coordination } from "./coordination";
import { EventLog, type RunEvent } from "./events";
import { drive, endCancelled } from "./loop";
import { listWithWaits, runWithEvents, type ListedRun } from "./queries";
import { recover } from "./recovery";
import { clientCallOf, openClientCall } from "./client-call";
import { catalogOf, replay, startOf } from "./replay";
import { Run, type RuntimeSettings } from "./run";
import type { Decision, Person } from "./shapes";
import type { ParentLink } from "./specialist-link";
import { agentForRun, declarationOf, insertRun, runRow, type RunFilter, type RunSummary, type Via } from "./store";
import { VOICE_TIMING } from "./voice";

export type RuntimeOptions = {
  db: Db;
  tree: string;
  dataDir: string;
  /** PostgreSQL's LISTEN/NOTIFY, where other studio processes may share the database (bus.ts). */
  channel?: Channel;
  /** The MCP servers' connections; the studio process's own pool by default. */
  mcp?: McpPool;
} & Partial<RuntimeSettings>;

export type Who = { id: string; name?: string | null };

/** One turn of a conversation a client sent whole, before the message a new run answers. */
export type PriorTurn = { role: "user" | "assistant"; text: string };

const person = (who: Who): Person => ({ id: who.id, name: who.name ?? null });

function busy(id: string, status: RunStatus): DomainError {
  return new DomainError(
    "CONFLICT",
    "RUN_BUSY",
    status === "waiting"
      ? "This run is waiting for an approval or an answer; give it first, then send your message."
      : "This run is still working; wait for it to finish, then send your message.",
    { id, status },
  );
}

function oneCall(id: string): DomainError {
  return new DomainError(
    "CONFLICT",
    "ONE_CALL_RUN",
    "This run is one call a client made of one of the agent's tools, not a conversation, so it cannot be continued; start a new run to talk to the agent.",
    { id },
  );
}

function ended(id: string, status: RunStatus): DomainError {
  return new DomainError("CONFLICT", "RUN_ENDED", "This run has already ended, so there is nothing to stop; send a message to continue it.", { id, status });
}

export class Runtime {
  readonly log: EventLog;
  private readonly settings: RuntimeSettings;
  private readonly live = new Map<string, { run: Run; loop: Promise<void> }>();
  /** Resumes under way, so two decisions at once rebuild a run once. */
  private readonly resuming = new Map<string, Promise<Run>>();

  /** The other studio processes sharing the database, where there are any. */
  private readonly others: Coordination;

  constructor(private readonly options: RuntimeOptions) {
    this.log = new EventLog(options.db);
    this.others = new Coordination(options.channel, options.db, this.log, {
      isLive: (runId) => this.live.has(runId),
      holds: (runId) => this.live.has(runId) || this.resuming.has(runId),
      driving: async (runId) => this.live.get(runId)?.run ?? (await this.resuming.get(runId)?.catch(() => undefined)),
    });
    this.settings = {
      voice: options.voice ?? VOICE_TIMING,
      modelRetries: options.modelRetries ?? 2,
      modelRetryMs: options.modelRetryMs ?? 1_000,
      maxSteps: options.maxSteps ?? 50,
      canAsk: options.canAsk ?? true,
      retryMs: options.retryMs ?? 250,
      onStep: options.onStep,
    };
  }

  private get db(): Db {
    return this.options.db;
  }

  private get mcp(): McpPool {
    return this.options.mcp ?? mcpPool();
  }

  private deps() {
    return { db: this.db, log: this.log, tree: this.options.tree, dataDir: this.options.dataDir, settings: this.settings, mcp: this.options.mcp, specialists: this };
  }

  private launch(run: Run, before?: () => Promise<void>): void {
    const loop = (async () => {
      try {
        await before?.();
        await drive(run);
      } catch (err) {
        if (run.cancelled && !run.abandoned) await endCancelled(run).catch(() => undefined);
        else if (!run.abandoned) await run.setStatus("failed", `The run could not start: ${(err as Error).message}`).catch(() => undefined);
      } finally {
        if (this.live.get(run.id)?.run === run) this.live.delete(run.id);
      }
    })();
    this.live.set(run.id, { run, loop });
  }

  /**
   * A new run of the agent as it stands, answering `message`; returns at once, the loop goes on. `prior` is the
   * conversation before it, when a client sends one whole (kept as the run's first messages); `system` is the
   * client's own system text, told after the agent's instructions. `via` says how it started (R-key-via): the
   * playground unless told otherwise.
   */
  async start(input: { agentId: string; message: string; user: Who; prior?: PriorTurn[]; system?: string | null; via?: Via; parent?: ParentLink }): Promise<{ runId: string }> {
    const run = await this.newRun(input.agentId, input.user, input.via, input.parent);
    run.clientSystem = input.system?.trim() || null;
    this.launch(run, async () => {
      await this.begin(run);
      for (const turn of input.prior ?? []) {
        if (turn.role === "user") void run.emit("message", { role: "user", text: turn.text, by: person(input.user), prior: true });
        else void run.emit("message", { role: "assistant", text: turn.text, calls: [], usage: { input: 0, output: 0 }, modelMs: 0, prior: true });
        run.transcript.push(turn.role === "user" ? { kind: "user", text: turn.text } : { kind: "assistant", text: turn.text, calls: [] });
      }
      void run.emit("message", { role: "user", text: input.message, by: person(input.user) });
      run.transcript.push({ kind: "user", text: input.message });
    });
    return { runId: run.id };
  }

  /**
   * A run whose one step is a client's call of one of the agent's operations (R-api-mcp-call), as the model would
   * have made it: every rule of a model's call holds, and no model is asked. Returns at once with the run's id and
   * the call's id; the call's events tell how it goes.
   */
  async call(input: { agentId: string; name: string; args: Record<string, unknown>; user: Who; via?: Via }): Promise<{ runId: string; callId: string }> {
    const run = await this.newRun(input.agentId, input.user, input.via);
    const call = clientCallOf(input.name, input.args);
    run.clientCall = call;
    this.launch(run, async () => {
      await this.begin(run);
      openClientCall(run, call);
    });
    return { runId: run.id, callId: call.callId };
  }

  /** The run's row and its Run in memory, for the agent as it stands; nothing read of its sources yet. */
  private async newRun(agentId: string, user: Who, via?: Via, parent?: ParentLink): Promise<Run> {
    const { declaration, version } = await agentForRun(this.db, agentId);
    const row = await insertRun(this.db, { agentId, agentVersion: version, declaration, startedBy: user.id, via, parent });
    const agent = { id: agentId, name: declaration.name, version };
    const run = new Run(row.id, agent, declaration, user.id, { tools: [], operations: [], withheld: [], problems: [] }, this.deps());
    // A specialist's one-at-a-time calls take turns with its asker's (R-spec-serial).
    if (parent) run.lane = parent.lane;
    return run;
  }

  /** The agent's sources read now: only the MCP servers it names, one that is down offering nothing (R-mcp-down-at-start). */
  private async catalogFor(declaration: AgentDeclaration): Promise<RunCatalog> {
    const only = mcpServersOf(declaration);
    const mcp = only.length > 0 ? { db: this.db, pool: this.mcp, only, provider: declaration.model.provider } : undefined;
    // The studio's agents are read only for an agent that asks some of them (R-spec-entry).
    const agents = agentsIn(declaration.tools.map((tool) => tool.entry)).length > 0 ? this.db : undefined;
    const { sources, extras, treeError } = await readSources(this.options.tree, mcp, agents);
    return runCatalog(declaration, sources, extras, treeError);
  }

  /** What a run of the agent started now would offer the model, read as a run reads it, without starting one. */
  async offered(agentId: string): Promise<{ agent: { id: string; name: string; version: number }; catalog: RunCatalog }> {
    const { declaration, version } = await agentForRun(this.db, agentId);
    return { agent: { id: agentId, name: declaration.name, version }, catalog: await this.catalogFor(declaration) };
  }

  /** The run's catalog, read once per run, here; then its first event, which keeps it for a resume. */
  private async begin(run: Run): Promise<void> {
    const { declaration, agent } = run;
    prepareRoots(run);
    run.catalog = await this.catalogFor(declaration);
    void run.emit("run_started", {
      agent,
      model: { provider: declaration.model.provider, model: declaration.model.model },
      tools: run.catalog.tools,
      operations: run.catalog.operations,
      withheld: run.catalog.withheld,
      problems: run.catalog.problems,
      planning: run.planning,
      ...(run.clientSystem ? { system: run.clientSystem } : {}),
      ...(run.clientCall ? { clientCall: run.clientCall } : {}),
    });
  }

  /** The run rebuilt from its events, in memory and ready to drive (not yet driven). */
  private async rebuild(runId: string): Promise<Run> {
    const row = await runRow(this.db, runId);
    const events = await this.log.stored(runId);
    const started = startOf(events);
    if (!started) throw new DomainError("CONFLICT", "RUN_NOT_STARTED", "This run never got going, so it cannot be continued; start a new one.", { id: runId });
    const run = new Run(row.id, started.agent, declarationOf(row.declaration), row.startedBy, catalogOf(started), this.deps());
    run.clientSystem = started.system ?? null;
    run.clientCall = started.clientCall ?? null;
    run.status = row.status;
    replay(run, events);
    return run;
  }

  /** Listen to the other studio processes sharing the database, where there may be some. */
  connect(): Promise<void> {
    return this.others.connect();
  }

  /** A run waiting on the person that is not in memory (the studio restarted): rebuilt and driven again. */
  private async resumed(runId: string): Promise<Run> {
    const live = this.live.get(runId);
    if (live) return live.run;
    let pending = this.resuming.get(runId);
    if (!pending) {
      pending = (async () => {
        const row = await runRow(this.db, runId);
        if (row.status !== "waiting") {
          throw new DomainError("CONFLICT", "NOT_WAITING", "This run is not waiting for anything; it may have finished or been decided already.", { id: runId });
        }
        const run = await this.rebuild(runId);
        this.launch(run);
        return run;
      })().finally(() => this.resuming.delete(runId));
      this.resuming.set(runId, pending);
    }
    return pending;
  }

  /** Another message in the run's conversation, once it has finished its answer (or failed). */
  async send(input: { runId: string; message: string; user: Who }): Promise<{ runId: string }> {
    const live = this.live.get(input.runId);
    if (live) throw busy(input.runId, live.run.status);
    const row = await runRow(this.db, input.runId);
    if (row.status === "running" || row.status === "waiting") throw busy(input.runId, row.status);
    const run = await this.rebuild(input.runId);
    if (run.clientCall) throw oneCall(input.runId);
    if (this.live.has(input.runId)) throw busy(input.runId, "running");
    run.status = row.status;
    this.launch(run, async () => {
      await run.setStatus("running");
      void run.emit("message", { role: "user", text: input.message, by: person(input.user) });
      run.transcript.push({ kind: "user", text: input.message });
    });
    return { runId: input.runId };
  }

  /** The person's decision on a call waiting for approval: once, always in this run, or deny. */
  async decide(runId: string, callId: string, decision: Decision, user: Who): Promise<{ runId: string; callId: string; decision: Decision }> {
    if (await this.others.passedOn(runId, { kind: "decide", callId, decision, by: person(user) })) return { runId, callId, decision };
    const run = await this.resumed(runId);
    run.settle(callId, "approval", { decision, by: person(user) });
    return { runId, callId, decision };
  }

  /** The person's reply to ask_user; null when they would rather not answer. */
  async answer(runId: string, callId: string, answer: string | null, user: Who): Promise<{ runId: string; callId: string }> {
    if (await this.others.passedOn(runId, { kind: "answer", callId, answer, by: person(user) })) return { runId, callId };
    const run = await this.resumed(runId);
    run.settle(callId, "question", { answer, by: person(user) });
    return { runId, callId };
  }

  /**
   * Stop a run for the person: one going in this process stops where it is and its loop ends it; one waiting on
   * the person but not in memory (the studio restarted) is ended here. A run that has ended cannot be stopped.
   */
  async cancel(runId: string, user: Who): Promise<{ runId: string }> {
    if (await this.others.passedOn(runId, { kind: "cancel", by: person(user) })) return { runId };
    await this.resuming.get(runId)?.catch(() => undefined);
    const live = this.live.get(runId)?.run;
    const status = live?.status ?? (await runRow(this.db, runId)).status;
    if (status !== "running" && status !== "waiting") throw ended(runId, status);
    if (live) {
      live.cancel(person(user));
      return { runId };
    }
    // A decision may have woken the run while its row was read.
    if (this.live.has(runId) || this.resuming.has(runId)) return this.cancel(runId, user);
    const stopping = this.stopAtRest(runId, person(user)).finally(() => this.resuming.delete(runId));
    // Held where resumes are, so a decision arriving meanwhile finds nothing left to decide.
    this.resuming.set(runId, stopping);
    await stopping;
    return { runId };
  }

  /**
   * A run not in memory, stopped from its events: driven once more, already stopped, so each open call answers
   * that it was stopped (or lost in the restart) and the loop ends the run as cancelled.
   */
  private async stopAtRest(runId: string, by: Person): Promise<Run> {
    const run = await this.rebuild(runId);
    run.cancel(by);
    this.launch(run);
    await this.idle(runId);
    return run;
  }

  /** The run's events after `lastEventId` (all of them without one), then live ones until the signal aborts. */
  async subscribe(runId: string, lastEventId?: string | null, signal?: AbortSignal): Promise<AsyncGenerator<RunEvent>> {
    await runRow(this.db, runId);
    return this.log.subscribe(runId, lastEventId, signal);
  }

  /** Newest first; a waiting run says what it waits on, so the list can ask for an approval or an answer. */
  list(filter: RunFilter = {}): Promise<ListedRun[]> {
    return listWithWaits(this.db, filter);
  }

  get(runId: string): Promise<{ run: RunSummary; events: RunEvent[] }> {
    return runWithEvents(this.db, this.log, runId);
  }

  /** At start-up: what a stopped process left (recovery.ts), the runs another process drives left alone. */
  recover(): Promise<{ failed: string[]; waiting: string[] }> {
    return recover({
      db: this.db,
      log: this.log,
      isLive: (runId) => this.live.has(runId),
      leftOver: (ids) => this.others.leftOver(ids),
      rebuild: (runId) => this.rebuild(runId),
      launch: (run) => this.launch(run),
    });
  }

  /** Resolves when the run's loop in this process stops (at once when none is going). */
  async idle(runId: string): Promise<void> {
    await this.live.get(runId)?.loop;
    await this.log.flushed();
  }

  /** Whether the run's loop is going in this process. */
  isLive(runId: string): boolean {
    return this.live.has(runId);
  }

  /** Stop every loop of this process without writing anything more, as a process that goes away would. */
  async shutdown(): Promise<void> {
    await this.others.close();
    const loops = [...this.live.values()];
    for (const { run } of loops) run.abandon();
    await Promise.allSettled(loops.map((l) => l.loop));
    await this.log.flushed();
  }
}
