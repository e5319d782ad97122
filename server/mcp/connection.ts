// One MCP server's connection in this studio process (R-mcp-one-connection): opened on first need with the
// row's secrets resolved then, shared by every caller, stopped after the row's idle time (R-mcp-idle-stop),
// restarted with backoff when a stdio server exits (R-mcp-restart-backoff), re-opened when an HTTP session
// expires. Everything it shows (sentences, stderr, results) is masked with the values its row resolved.
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import type { Db } from "@/db/client";
import type { Limits } from "@/server/host/command";
import type { Progress } from "@/server/host/protocol";
import { makeMasker, type Masker } from "@/server/secrets/mask";
import { referencedNames } from "@/server/secrets/names";
import { resolveSecrets, substitute } from "@/server/secrets/resolve";
import type { McpTransport } from "./config";
import { callFailure, maskResult } from "./connection-call";
import { openHttp, sessionGone } from "./connection-http";
import { lastLine, StartFailure, TRANSPORT_LABEL, type Link, type TransportKind } from "./connection-link";
import { openStdio } from "./connection-stdio";
import { NeedsSignIn } from "./oauth-provider";
import type { McpServerRow } from "./registry";

export type ConnectionOptions = {
  dataDir: string;
  sandbox: boolean;
  limits: Limits;
  connectTimeoutMs: number;
  /** A call's bound unless its caller gives one: the MCP row of the timeout table. */
  callTimeoutMs: number;
  /** The first restart's delay; each next one doubles, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** A caller waits this long for a restart already due; beyond it, it is answered with why the server is down. */
  waitForRestartMs: number;
  /** The studio key the secrets are read with (tests); the studio's own by default. */
  key?: Buffer;
};

/** "needs-sign-in": an OAuth server nobody is signed in to, or whose grant cannot be renewed (R-mcp-oauth-needs-sign-in). */
export type McpState = "connected" | "starting" | "failed" | "stopped" | "needs-sign-in";

export type McpStatus = {
  state: McpState;
  sentence: string;
  transport: TransportKind | null;
  pid: number | null;
  sandboxed: boolean | null;
  confinement: string | null;
  toolCount: number | null;
  toolsReadAt: Date | null;
  /** Why the server last ended when nobody asked it to: "exit code 1: Error: no token". */
  lastExit: { at: Date; reason: string } | null;
  nextStartAt: Date | null;
  /** The server's last stderr lines, masked (stdio). */
  stderr: string;
};

/** `meta`: sent in the call's `_meta` beside any progress token (an idempotency key, R-journal-idempotent). */
export type CallOptions = { signal?: AbortSignal; onProgress?: (progress: Progress) => void; timeoutMs?: number; meta?: Record<string, unknown> };

/** A link that lived this long before it ended counts as having worked: the backoff starts over. */
const STABLE_MS = 60_000;
/** Restarts in a row after which a crashing server waits for its next use. */
const MAX_RESTARTS = 5;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export class McpConnection {
  private link: Link | null = null;
  private opening: Promise<Link> | null = null;
  /** Bumped by stop() and close(): an opening that started before is dropped when it lands. */
  private generation = 0;
  private connectedAt = 0;
  private failures = 0;
  private notBefore = 0;
  private failure: string | null = null;
  /** The failure is a sign-in an admin must make: no backoff, since only Connect can fix it. */
  private signIn = false;
  private stoppedWhy = "Not started yet; it starts when first needed.";
  private lastExit: McpStatus["lastExit"] = null;
  private tools: { list: Tool[]; readAt: Date } | null = null;
  private toolsEpoch = 0;
  private readonly toolListeners = new Set<() => void>();
  /** The stderr of the server that ended last (the running one's is read from it). */
  private stderrKept = "";
  private inFlight = 0;
  /** When the last use ended (Date.now()): the idle time counts from it. */
  private lastUse = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private seen: string[] = [];
  private masker: Masker = makeMasker([]);
  private tokens = 0;
  private closed = false;

  constructor(
    readonly row: McpServerRow,
    private readonly db: Db,
    private readonly options: ConnectionOptions,
  ) {}

  /** Every value this server was given (its row's secrets, resolved): for a caller's own masker. */
  resolvedValues(): readonly string[] {
    return this.seen;
  }

  /** Masks every value this server was ever given. */
  mask(text: string): string {
    return this.masker(text);
  }

  status(): McpStatus {
    const link = this.link;
    const state: McpState = link ? "connected" : this.opening ? "starting" : this.failure ? (this.signIn ? "needs-sign-in" : "failed") : "stopped";
    const label = link ? TRANSPORT_LABEL[link.kind] : null;
    const count = this.tools ? `: ${this.tools.list.length} tool${this.tools.list.length === 1 ? "" : "s"}` : "";
    const restarting = this.notBefore > Date.now() && this.lastExit ? `Restarting after it stopped (${this.lastExit.reason}).` : "Starting.";
    const sentence = state === "connected" ? `Connected over ${label}${count}.` : state === "starting" ? restarting : this.failure ?? this.stoppedWhy;
    return {
      state,
      sentence: this.mask(sentence),
      transport: link?.kind ?? null,
      pid: link?.pid ?? null,
      sandboxed: link?.sandboxed ?? null,
      confinement: link?.confinement ?? null,
      toolCount: this.tools?.list.length ?? null,
      toolsReadAt: this.tools?.readAt ?? null,
      lastExit: this.lastExit && { ...this.lastExit, reason: this.mask(this.lastExit.reason) },
      nextStartAt: this.notBefore > Date.now() ? new Date(this.notBefore) : null,
      stderr: this.mask(link ? link.stderrTail() : this.stderrKept),
    };
  }

  onToolsChanged(listener: () => void): () => void {
    this.toolListeners.add(listener);
    return () => void this.toolListeners.delete(listener);
  }

  /** The open session, opened if needed; a StartFailure (masked) when the server does not come up. */
  ready(): Promise<Link> {
    if (this.closed) return Promise.reject(new StartFailure(`The MCP server ${this.row.name} was removed or changed; ask again.`));
    if (this.link) return Promise.resolve(this.link);
    // Checked before joining an opening: a restart may be sleeping out a long backoff.
    const wait = this.notBefore - Date.now();
    if (wait > this.options.waitForRestartMs) {
      const why = this.failure ?? (this.lastExit ? `It stopped (${this.lastExit.reason}).` : "It failed.");
      const sentence = /[.!?…]$/.test(why) ? why : `${why}.`;
      return Promise.reject(new StartFailure(this.mask(`${sentence} The studio tries again in ${Math.ceil(wait / 1000)} s.`)));
    }
    return this.opening ?? this.begin(Math.max(0, wait));
  }

  /**
   * Open after `delayMs`; callers in the meantime share the same opening. A `restart` (a stdio server that exited)
   * that fails to come up is tried again with the next backoff, up to MAX_RESTARTS in a row.
   */
  private begin(delayMs: number, restart = false): Promise<Link> {
    const generation = this.generation;
    const opening = (async () => {
      if (delayMs > 0) await sleep(delayMs);
      if (generation !== this.generation) throw new StartFailure(`The MCP server ${this.row.name} was stopped before it started.`);
      return this.open(generation);
    })();
    this.opening = opening;
    opening.then(
      () => undefined,
      (error: unknown) => {
        if (this.opening === opening) this.opening = null;
        if (generation !== this.generation) return;
        this.failure = this.mask(error instanceof Error ? error.message : String(error));
        this.signIn = error instanceof NeedsSignIn;
        if (this.signIn) return;
        this.failures += 1;
        const delay = this.backoff();
        this.notBefore = Date.now() + delay;
        if (restart && !this.closed && this.failures <= MAX_RESTARTS) void this.begin(delay, true).catch(() => undefined);
      },
    );
    return opening;
  }

  private backoff(): number {
    return Math.min(this.options.backoffMs * 2 ** Math.max(0, this.failures - 1), this.options.maxBackoffMs);
  }

  /** Values met after the start (a sign-in's tokens, renewed or not): masked from now on like the row's secrets. */
  private learn(values: readonly string[]) {
    const fresh = values.filter((value) => value !== "" && !this.seen.includes(value));
    if (fresh.length === 0) return;
    this.seen = [...this.seen, ...fresh];
    this.masker = makeMasker(this.seen);
  }

  /** The row's values with its secrets resolved, recorded as a use; the masker learns every value. */
  private async resolved(): Promise<McpTransport> {
    const transport = this.row.transport;
    const names = referencedNames(transport);
    if (names.size === 0) return transport;
    const values = await resolveSecrets(this.db, names, { actor: "studio", via: "mcp-server", tool: this.row.name }, this.options.key);
    this.seen = [...new Set([...this.seen, ...values.values()])];
    this.masker = makeMasker(this.seen);
    return substitute(transport, values) as McpTransport;
  }

  private async open(generation: number): Promise<Link> {
    let link: Link | undefined;
    const events = {
      onClose: (expected: boolean) => this.ended(link, expected),
      onToolsChanged: () => this.toolsChanged(),
    };
    try {
      const transport = await this.resolved();
      const signIn =
        transport.type === "http" && transport.auth
          ? { db: this.db, row: this.row, clientSecret: transport.auth.clientSecret, key: this.options.key, onValues: (values: string[]) => this.learn(values) }
          : undefined;
      link =
        transport.type === "stdio"
          ? await openStdio(this.row.id, transport, this.options, events)
          : await openHttp(transport.url, transport.headers, (this.row.transport as { url: string }).url, this.options, events, signIn);
    } catch (error) {
      const sentence = this.mask(error instanceof Error ? error.message : String(error));
      throw error instanceof NeedsSignIn ? new NeedsSignIn(sentence) : new StartFailure(sentence);
    }
    if (generation !== this.generation || this.closed) {
      await link!.close().catch(() => undefined);
      throw new StartFailure(`The MCP server ${this.row.name} was stopped before it started.`);
    }
    this.link = link;
    this.opening = null;
    this.failure = null;
    this.signIn = false;
    this.connectedAt = Date.now();
    this.stderrKept = "";
    this.tools = null;
    this.toolsEpoch += 1;
    this.lastUse = Date.now();
    this.armIdle();
    return link;
  }

  /** A session that ended: asked for, or the server went away (a stdio one is restarted with backoff). */
  private ended(link: Link | undefined, expected: boolean) {
    if (!link) return;
    this.stderrKept = link.stderrTail();
    if (this.link !== link) return;
    this.link = null;
    this.tools = null;
    this.toolsEpoch += 1;
    if (expected || this.closed) return;
    const said = lastLine(link.stderrTail());
    const how = link.exited() ?? "the connection closed";
    this.lastExit = { at: new Date(), reason: said ? `${how}: ${said}` : how };
    if (Date.now() - this.connectedAt >= STABLE_MS) this.failures = 0;
    this.failures += 1;
    const delay = this.backoff();
    this.notBefore = Date.now() + delay;
    const restart = link.kind === "stdio" && this.failures <= MAX_RESTARTS;
    process.stderr.write(this.mask(`quiver: the MCP server ${this.row.name} stopped (${this.lastExit.reason})${restart ? `; restarting in ${delay} ms` : ""}\n`));
    if (restart) void this.begin(delay, true).catch(() => undefined);
    else this.failure = this.mask(`It stopped (${this.lastExit.reason}).`);
  }

  private toolsChanged() {
    this.tools = null;
    this.toolsEpoch += 1;
    for (const listener of this.toolListeners) listener();
  }

  /**
   * One timer for the idle stop, due the idle time after the last use ended; a use does not move it, the timer does
   * when it fires early (R-mcp-idle-stop, R-call-path-lean): a call re-arming a timer twice costs more than a no-op call.
   */
  private armIdle() {
    if (this.idleTimer || this.row.idleStopS <= 0 || this.inFlight > 0 || !this.link) return;
    const idleMs = this.row.idleStopS * 1000;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      // A use under way arms it again when it ends.
      if (this.inFlight > 0 || !this.link) return;
      if (Date.now() - this.lastUse >= idleMs) void this.stop(`Stopped after ${this.row.idleStopS} s without use; it starts again when next needed.`);
      else this.armIdle();
    }, Math.max(0, this.lastUse + idleMs - Date.now()));
    this.idleTimer.unref();
  }

  /** Run `request` on the open session, re-opening it once when the server no longer knows the session. */
  private async use<T>(request: (link: Link) => Promise<T>): Promise<T> {
    this.inFlight += 1;
    try {
      const link = await this.ready();
      try {
        return await request(link);
      } catch (error) {
        if (error instanceof NeedsSignIn) throw this.signedOut(link, error);
        if (link.kind === "stdio" || !sessionGone(error)) throw error;
        if (this.link === link) {
          this.link = null;
          void link.close().catch(() => undefined);
        }
        return await request(await this.ready());
      }
    } finally {
      this.inFlight -= 1;
      this.lastUse = Date.now();
      this.armIdle();
    }
  }

  /** A session whose grant could not be renewed mid-use: closed, and the row needs a sign-in (R-mcp-oauth-needs-sign-in). */
  private signedOut(link: Link, error: NeedsSignIn): NeedsSignIn {
    const masked = new NeedsSignIn(this.mask(error.message));
    if (this.link === link) {
      this.link = null;
      this.tools = null;
      this.toolsEpoch += 1;
      void link.close().catch(() => undefined);
    }
    this.failure = masked.message;
    this.signIn = true;
    return masked;
  }

  /** The server's tools and when they were read; read again after notifications/tools/list_changed. */
  async listTools(options: { refresh?: boolean } = {}): Promise<{ tools: Tool[]; readAt: Date }> {
    if (this.tools && !options.refresh && this.link) return { tools: this.tools.list, readAt: this.tools.readAt };
    return this.use(async (link) => {
      const epoch = this.toolsEpoch;
      const { tools } = await link.client.listTools(undefined, { timeout: this.options.connectTimeoutMs, cacheMode: "bypass" });
      const read = { list: tools, readAt: new Date() };
      if (epoch === this.toolsEpoch && this.link === link) this.tools = read;
      return { tools: read.list, readAt: read.readAt };
    });
  }

  /**
   * tools/call: progress forwarded as it arrives, `signal` cancelling it (the SDK sends notifications/cancelled),
   * and a server that stops mid-call answered with a sentence saying the call may have partly run.
   */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    let started = null as Link | null;
    try {
      return await this.use(async (link) => {
        started = link;
        const token = options.onProgress ? `quiver-mcp-${++this.tokens}` : null;
        if (token) link.progress.set(token, (progress) => options.onProgress!({ ...progress, message: progress.message && this.mask(progress.message) }));
        try {
          const result = await link.client.callTool(
            { name, arguments: args, ...(token || options.meta ? { _meta: { ...options.meta, ...(token ? { progressToken: token } : {}) } } : {}) },
            { signal: options.signal, timeout: options.timeoutMs ?? this.options.callTimeoutMs },
          );
          return maskResult(result as CallToolResult, this.masker);
        } finally {
          if (token) link.progress.delete(token);
        }
      });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      return callFailure(error, { server: this.row.name, tool: name, link: started, timeoutMs: options.timeoutMs ?? this.options.callTimeoutMs, mask: this.masker });
    }
  }

  /** Open the session and read the tools: the sentence Test connection shows. */
  async test(): Promise<{ ok: boolean; sentence: string }> {
    try {
      const { tools } = await this.listTools({ refresh: true });
      const kind = this.link?.kind;
      const over = kind ? ` over ${TRANSPORT_LABEL[kind]}` : "";
      return { ok: true, sentence: `Connected${over}: ${tools.length} tool${tools.length === 1 ? "" : "s"}.` };
    } catch (error) {
      return { ok: false, sentence: this.mask(error instanceof Error ? error.message : String(error)) };
    }
  }

  /** Stop the server (close the session); the next use starts it again at once. */
  async stop(why = "Stopped; it starts again when next needed."): Promise<void> {
    this.generation += 1;
    const link = this.link;
    this.link = null;
    this.opening = null;
    this.failure = null;
    this.signIn = false;
    this.failures = 0;
    this.notBefore = 0;
    this.stoppedWhy = why;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (link) {
      this.stderrKept = link.stderrTail();
      await link.close().catch(() => undefined);
    }
  }

  /** For good: the row changed or went away, or the studio is shutting down. */
  async close(): Promise<void> {
    this.closed = true;
    this.toolListeners.clear();
    await this.stop();
  }
}
