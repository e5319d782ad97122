// One tool host per tree, started on first use and restarted when it dies, behind `hostFor(tree)`: the facade
// the rest of server/ uses to reach a tree. Edit when the studio needs a new way to reach a tree's host.
import type { Tool } from "@modelcontextprotocol/client";
import { recordHostRestart } from "../metrics/studio";
import type { HostRestartReason } from "../metrics/registry";
import { hostCommand, resolveTree, type HostOptions } from "./command";
import { CLIENT_WAIT_S, HostClient, HostError, type CallOptions } from "./client";
import { installDeps, type DepsOptions, type DepsSummary } from "./deps";
import { errorResult, type CallResult, type Catalog, type CatalogFile, type HookCall, type HookDecision, type SecretCheck } from "./protocol";
import { ReplacementWatch } from "./replacement";
import type { CallBehaviour } from "./call-behaviour";
import { describeExit } from "./transport";

export type HostStatus = {
  /** Whether the running host is inside bubblewrap (false until it has started). */
  sandboxed: boolean;
  /** Why it is not sandboxed (or not running), as a sentence; null when it is. */
  reason: string | null;
  /** The host's process id (bubblewrap's, when sandboxed); null when it is not running. */
  pid: number | null;
  /** When the studio last replaced this tree's host over what a tool did (ISO 8601); null if it never has. */
  replacedAt: string | null;
  /** Why, as a sentence: "spin__loop did not stop within 2 s of its 25 s timeout"; null if never. */
  lastReplacement: string | null;
};

export type Host = {
  readonly tree: string;
  readonly status: HostStatus;
  /** Start the host if needed and report how it runs. */
  ready(): Promise<HostStatus>;
  catalog(detail?: boolean): Promise<Catalog>;
  preview(path: string, source: string): Promise<CatalogFile>;
  listTools(): Promise<Tool[]>;
  /** Always answers: a host that stops or goes silent mid-call becomes an error result saying so. */
  call(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallResult>;
  checkSecret(path: string, field: string, value: string): Promise<SecretCheck>;
  /** Which of these tools their module's check() holds back now, with why (R-check-turn). */
  held(names: string[], maxAgeS: number): Promise<Record<string, string>>;
  /** What hooks/tools.py (its text given) decides on one call before it runs. */
  hook(source: string, call: HookCall): Promise<HookDecision>;
  /** A Tool class's own answers for one call (R-tool-class-per-call); optional so a stand-in host may leave it out. */
  callBehaviour?(name: string, args: Record<string, unknown>): Promise<CallBehaviour>;
  /** Install the tree's dependencies, then restart the host so it sees them. */
  installDeps(options?: Omit<DepsOptions, keyof HostOptions>): Promise<DepsSummary>;
  /** Stop the running host; the next use starts a fresh one. */
  restart(): Promise<void>;
  /** Called when the host says the tree's tools changed; returns the unsubscribe. */
  onToolsChanged(listener: () => void): () => void;
  close(): Promise<void>;
};

/** More starts than this within a minute and a dead host waits for its next use instead of restarting at once. */
const RESTARTS_PER_MINUTE = 5;
const AFTER = "it has been restarted — check whether the call took effect before trying again";

class SupervisedHost implements Host {
  private current: Promise<HostClient> | null = null;
  private live: HostClient | null = null;
  private starts: number[] = [];
  private closed = false;
  private readonly listeners = new Set<() => void>();
  /** Hosts the studio replaced although they still answered, with why: their calls in flight are answered so. */
  private readonly replacedFor = new WeakMap<HostClient, string>();
  private replacement: { at: string; why: string } | null = null;

  constructor(
    readonly tree: string,
    private readonly options: HostOptions,
  ) {}

  get status(): HostStatus {
    const live = this.live;
    const replaced = { replacedAt: this.replacement?.at ?? null, lastReplacement: this.replacement?.why ?? null };
    if (!live) return { sandboxed: false, reason: "The tool host for this tree is not running yet.", pid: null, ...replaced };
    return { sandboxed: live.command.sandboxed, reason: live.command.reason, pid: live.pid, ...replaced };
  }

  async ready(): Promise<HostStatus> {
    await this.client();
    return this.status;
  }

  private client(): Promise<HostClient> {
    if (this.closed) return Promise.reject(new HostError("unavailable", `The tool host for ${this.tree} is shut down.`));
    this.current ??= this.start();
    return this.current;
  }

  private start(): Promise<HostClient> {
    const now = Date.now();
    this.starts = [...this.starts.filter((t) => now - t < 60_000), now];
    const starting = (async () => {
      const command = await hostCommand(this.tree, this.options);
      let self: HostClient | null = null;
      const watch = new ReplacementWatch((why) => self && this.replaceOver(self, why));
      const client = await HostClient.connect(command, {
        onToolsChanged: () => this.listeners.forEach((listener) => listener()),
        onClose: (expected) => {
          watch.stop();
          if (self && !expected) this.replace(self, "exited");
        },
        onCallMeta: (tool, meta) => watch.answered(tool, meta),
        onHostNotice: (method, params) => watch.notice(method, params),
      });
      self = client;
      this.live = client;
      return client;
    })();
    // A host that failed to start is tried again on the next use.
    starting.catch(() => {
      if (this.current === starting) this.current = null;
    });
    return starting;
  }

  /** Replace a host that still answers because of what a tool did; shown in the status until the next time. */
  private replaceOver(client: HostClient, why: string) {
    if (this.live !== client) return;
    this.replacedFor.set(client, why);
    this.replacement = { at: new Date().toISOString(), why };
    process.stderr.write(`quiver: replaced the tool host of ${this.tree}: ${why}\n`);
    this.replace(client, "replaced");
  }

  /** Drop a dead or wedged host and start its successor (at once, unless it keeps dying); counted by why (R-metrics-names). */
  private replace(dead: HostClient, reason: HostRestartReason) {
    if (this.live !== dead) return;
    recordHostRestart(reason);
    this.live = null;
    this.current = null;
    // Unsandboxed, the host leads a process group of its own (run.py): the kill takes the processes its tools
    // started too. Only while it runs, so the pid cannot be another's yet. Sandboxed, bubblewrap's end ends them.
    if (dead.pid !== null && dead.exit === null) {
      try {
        process.kill(-dead.pid, "SIGKILL");
      } catch {
        // no such group: a sandboxed host, or one that could not lead a group
      }
    }
    dead.kill();
    if (!this.closed && this.starts.filter((t) => Date.now() - t < 60_000).length < RESTARTS_PER_MINUTE) {
      this.current = this.start();
    }
  }

  /** A request that only reads or decides: moved to the fresh host when the one it went to was replaced meanwhile. */
  private async ask<T>(request: (client: HostClient) => Promise<T>): Promise<T> {
    const client = await this.client();
    try {
      return await request(client);
    } catch (error) {
      if (!(error instanceof HostError) || !this.replacedFor.has(client)) throw error;
      return request(await this.client());
    }
  }

  catalog(detail = false) {
    return this.ask((client) => client.catalog(detail));
  }

  preview(path: string, source: string) {
    return this.ask((client) => client.preview(path, source));
  }

  listTools() {
    return this.ask((client) => client.listTools());
  }

  checkSecret(path: string, field: string, value: string) {
    return this.ask((client) => client.checkSecret(path, field, value));
  }

  hook(source: string, call: HookCall) {
    return this.ask((client) => client.hook(source, call));
  }

  held(names: string[], maxAgeS: number) {
    return this.ask((client) => client.held(names, maxAgeS));
  }

  callBehaviour(name: string, args: Record<string, unknown>) {
    return this.ask((client) => client.callBehaviour(name, args));
  }

  async call(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallResult> {
    let client: HostClient;
    try {
      client = await this.client();
    } catch (error) {
      return errorResult((error as Error).message);
    }
    try {
      return await client.call(name, args, options);
    } catch (error) {
      if (!(error instanceof HostError)) throw error;
      const why = this.replacedFor.get(client);
      if (why) {
        return errorResult(`The tool host was replaced because ${why}; ${name} may have partly run, so check its effects before calling it again.`);
      }
      if (error.code === "no_answer") {
        this.replace(client, "unanswered");
        return errorResult(`The tool host did not answer ${name} within ${CLIENT_WAIT_S} s; ${AFTER}`, "timeout");
      }
      this.replace(client, "exited");
      const how = client.exit ? describeExit(client.exit) : "no exit status";
      return errorResult(`The tool host stopped while running ${name} (${how}); ${AFTER}`);
    }
  }

  async installDeps(options: Omit<DepsOptions, keyof HostOptions> = {}) {
    const summary = await installDeps(this.tree, { ...this.options, ...options });
    if (summary.status === "installed" && this.current) await this.restart();
    return summary;
  }

  /** Stop the running host; the next use starts a fresh one. */
  async restart(): Promise<void> {
    const old = this.current;
    this.current = null;
    this.live = null;
    const client = await old?.catch(() => null);
    await client?.close();
  }

  onToolsChanged(listener: () => void) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  async close() {
    this.closed = true;
    this.listeners.clear();
    await this.restart();
  }
}

// Kept on globalThis so a reload of this module in `next dev` does not orphan the hosts already running.
const registry = ((globalThis as { __quiverHosts?: Map<string, SupervisedHost> }).__quiverHosts ??= new Map());

/**
 * The host for a tree (keyed by its absolute, symlink-free path), created on first use with these options and
 * reused after, whatever options later uses pass.
 */
export function hostFor(treeDir: string, options: HostOptions = {}): Host {
  const tree = resolveTree(treeDir);
  let host = registry.get(tree);
  if (!host) {
    host = new SupervisedHost(tree, options);
    registry.set(tree, host);
  }
  return host;
}

/** Stop every host: at shutdown, and after tests. */
export async function closeAll(): Promise<void> {
  const hosts = [...registry.values()];
  registry.clear();
  await Promise.all(hosts.map((host) => host.close()));
}
