// One connection to one tool host through the MCP SDK's Client: Quiver's own methods checked with zod, and
// tools/call with the settings, bound and session in `_meta`. Edit when the host's protocol changes.
import { createHash } from "node:crypto";
import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type JSONRPCMessage,
  type Tool,
} from "@modelcontextprotocol/client";
import { z } from "zod";
import type { HostCommand } from "./command";
import type { IoRequest } from "./io-protocol";
import { callBehaviourSchema, type CallBehaviour } from "./call-behaviour";
import {
  callMetaSchema,
  catalogFileSchema,
  catalogSchema,
  errorResult,
  hookDecisionSchema,
  parseStudioRequest,
  secretCheckSchema,
  heldSchema,
  type CallResult,
  type Catalog,
  type CatalogFile,
  type Content,
  type HookCall,
  type HookDecision,
  type Progress,
  type SecretCheck,
} from "./protocol";
import { HostTransport, type HostExit } from "./transport";
import { CallWire } from "./call-wire";

/** The ceiling on any call's bound, which the host enforces (R-call-timeout-max). */
export const MAX_TIMEOUT_S = 600;
/**
 * How long the studio waits for a call's answer before it calls the host wedged: a little over the host's own
 * ceiling, so no wait of the studio's cuts a 600 s call. The host enforces each call's real bound (which can
 * depend on the tool's ARG_TIMEOUT argument, or be none for an INTERACTIVE tool) and answers TimeoutError itself;
 * this only catches a host that stopped answering. (Progress does not extend it: see takeProgress.)
 */
export const CLIENT_WAIT_S = MAX_TIMEOUT_S + 5;
const CLIENT_WAIT_MS = CLIENT_WAIT_S * 1000;
/** Catalogs of large trees import every file on first use. */
const METHOD_TIMEOUT_MS = 120_000;

export type CallOptions = {
  /** The source's settings, secrets already resolved: sent in `_meta`, never in the arguments. */
  settings?: Record<string, unknown>;
  /** The policy's default bound, in seconds; an operation's own timeout still wins (R-call-timeout-own). */
  timeoutS?: number;
  /** Which run's kept instances (scope "run") the call uses. */
  session?: string;
  /** Sent as `_meta["quiver/idempotency-key"]`, the same for every replay of one step (R-journal-idempotent). */
  idempotencyKey?: string;
  onProgress?: (progress: Progress) => void;
  signal?: AbortSignal;
  /**
   * Answers what the call asks the studio while it runs (ctx.system, ctx.ask). A call given this may wait on a
   * person for as long as they take, so the client stops watching it for a wedged host: the run's own timer,
   * which stops while the call waits, does that instead.
   */
  onStudioRequest?: (request: StudioRequest) => Promise<Record<string, unknown>>;
};

/** What a call asks the studio while it runs: a built-in operation (ctx.system) or the person (ctx.ask). */
export type StudioRequest =
  | { method: "quiver/system"; params: { source: string; operation: string; arguments: Record<string, unknown> } }
  | { method: "quiver/ask"; params: { question: string; choices: string[] } }
  | { method: "quiver/io"; params: IoRequest };

/** The requests a running call may send the studio (ctx.system, ctx.ask, ctx.io). */
const STUDIO_METHODS = new Set(["quiver/system", "quiver/ask", "quiver/io"]);

/** What the host answers quiver/hook: the decision, or that it holds no hook text under the hash the call carried. */
const hookAnswerSchema = z.union([hookDecisionSchema, z.object({ missing: z.string() })]);

export type HostErrorCode = "unavailable" | "stopped" | "no_answer";

/** A failure of the host itself rather than of a tool; the supervisor turns it into an answer. */
export class HostError extends Error {
  constructor(
    readonly code: HostErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "HostError";
  }
}

export type HostEvents = {
  onToolsChanged?: () => void;
  /** The connection ended: `expected` when close() asked for it, false when the host died. */
  onClose?: (expected: boolean) => void;
  /** Each call's answer `_meta`, before the call returns (what the supervisor replaces a host over). */
  onCallMeta?: (tool: string, meta: Record<string, unknown>) => void;
  /** The host's own notifications (`notifications/quiver/...`), which the SDK's Client does not know. */
  onHostNotice?: (method: string, params: Record<string, unknown>) => void;
};

function toContent(part: CallToolResult["content"][number]): Content {
  if (part.type === "text") return { type: "text", text: part.text };
  if (part.type === "image") return { type: "image", data: part.data, mimeType: part.mimeType };
  return { type: "text", text: `[${part.type} content]` };
}

function lastLines(text: string, count: number): string {
  return text.trim().split("\n").slice(-count).join("\n");
}

export class HostClient {
  private readonly client = new Client({ name: "quiver", version: "0.1.0" }, { capabilities: {} });
  private readonly transport: HostTransport;
  /** tools/call, past the Client (call-wire.ts says why). */
  private readonly wire: CallWire;
  /** Progress listeners by the token sent in the call's `_meta`. */
  private readonly progress = new Map<string, (progress: Progress) => void>();
  /** The calls in flight that can ask the studio something, by the token sent in their `_meta`. */
  private readonly reaching = new Map<string, NonNullable<CallOptions["onStudioRequest"]>>();
  private tokens = 0;
  /** The sha256 of the hook text last asked about: the runtime passes the same text until the file changes. */
  private hookHash: { source: string; hash: string } | null = null;
  /** The hook text on its way to the host: calls that find it missing meanwhile wait for it, not send it again. */
  private teaching: { hash: string; sent: Promise<unknown> } | null = null;

  private constructor(
    readonly command: HostCommand,
    private readonly events: HostEvents,
  ) {
    this.transport = new HostTransport(command);
    this.wire = new CallWire((message) => this.transport.send(message), CLIENT_WAIT_MS);
    this.transport.claim = (value) => this.wire.take(value);
    this.transport.onended = () => this.wire.closed();
    // Progress is taken off the wire here, in arrival order, because the SDK's Client (1.x and 2.x alike) defers
    // notifications to a microtask but handles a response at once: lines sent just before a tool returns would
    // find their call already finished and be dropped (typescript-sdk issue #2580).
    this.transport.intercept = (message) => this.takeProgress(message) || this.takeStudioRequest(message) || this.takeHostNotice(message);
    this.client.setNotificationHandler("notifications/tools/list_changed", () => events.onToolsChanged?.());
    this.client.onerror = () => {}; // a stray line on stdout, a failed write: the call that suffers answers for it
    this.client.onclose = () => events.onClose?.(this.transport.closedByUs);
  }

  /** Start the host and run MCP's initialize; a host that does not start is a HostError with its stderr. */
  static async connect(command: HostCommand, events: HostEvents = {}): Promise<HostClient> {
    const host = new HostClient(command, events);
    try {
      await host.client.connect(host.transport, { timeout: 30_000 });
    } catch (error) {
      await host.transport.close();
      const said = lastLines(host.transport.stderrTail(), 5) || (error as Error).message;
      throw new HostError("unavailable", `The tool host for ${command.treeDir} did not start: ${said}`);
    }
    return host;
  }

  private takeProgress(message: JSONRPCMessage): boolean {
    if (!("method" in message) || message.method !== "notifications/progress" || "id" in message) return false;
    const params = (message.params ?? {}) as { progressToken?: unknown; progress?: unknown; total?: unknown; message?: unknown };
    const listener = this.progress.get(String(params.progressToken));
    if (!listener) return false;
    listener({
      progress: typeof params.progress === "number" ? params.progress : 0,
      total: typeof params.total === "number" ? params.total : undefined,
      message: typeof params.message === "string" ? params.message : undefined,
    });
    return true;
  }

  private takeHostNotice(message: JSONRPCMessage): boolean {
    if (!("method" in message) || "id" in message || !message.method.startsWith("notifications/quiver/")) return false;
    this.events.onHostNotice?.(message.method, (message.params ?? {}) as Record<string, unknown>);
    return true;
  }

  /**
   * A request the host sends on a call's behalf (ctx.system, ctx.ask), answered here rather than by the SDK's
   * Client, which knows only MCP's own methods and could not tell which call is asking.
   */
  private takeStudioRequest(message: JSONRPCMessage): boolean {
    if (!("method" in message) || !("id" in message) || !STUDIO_METHODS.has(message.method)) return false;
    const { id, method } = message;
    const params = (message.params ?? {}) as Record<string, unknown>;
    const answer = (reply: { result: Record<string, unknown> } | { error: { code: number; message: string } }) =>
      void this.transport.send({ jsonrpc: "2.0", id, ...reply } as JSONRPCMessage).catch(() => undefined);
    const handler = this.reaching.get(String(params.call));
    if (!handler) {
      answer({ error: { code: ProtocolErrorCode.InvalidRequest, message: `${method} came from a call that is no longer running` } });
      return true;
    }
    const request = parseStudioRequest(method as "quiver/system" | "quiver/ask" | "quiver/io", params);
    if (typeof request === "string") {
      answer({ error: { code: ProtocolErrorCode.InvalidParams, message: request } });
      return true;
    }
    handler(request).then(
      (result) => answer({ result }),
      (error: unknown) => answer({ error: { code: ProtocolErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) } }),
    );
    return true;
  }

  get pid(): number | null {
    return this.transport.pid;
  }

  get exit(): HostExit | null {
    return this.transport.exit;
  }

  stderrTail(lines?: number): string {
    return this.transport.stderrTail(lines);
  }

  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.transport.kill(signal);
  }

  private async method<S extends z.ZodType>(method: string, params: Record<string, unknown>, schema: S): Promise<z.infer<S>> {
    try {
      return (await this.client.request({ method, params }, schema, { timeout: METHOD_TIMEOUT_MS })) as z.infer<S>;
    } catch (error) {
      throw this.explain(error, method);
    }
  }

  /** The tree's files with their operations and errors; `detail` adds what only the editor needs. */
  catalog(detail = false): Promise<Catalog> {
    return this.method("quiver/catalog", detail ? { detail: true } : {}, catalogSchema);
  }

  /** What an unsaved buffer of `path` would offer, without touching the file on disk. */
  preview(path: string, source: string): Promise<CatalogFile> {
    return this.method("quiver/preview", { path, source }, catalogFileSchema);
  }

  /** Whether a secret value is usable for a settings field, as the file's check_secret decides. */
  checkSecret(path: string, field: string, value: string): Promise<SecretCheck> {
    return this.method("quiver/check_secret", { path, field, value }, secretCheckSchema);
  }

  /** Which of these tools their module's check() holds back now, with why; an answer at most `maxAgeS` old (R-check-turn). */
  async held(names: string[], maxAgeS: number): Promise<Record<string, string>> {
    return (await this.method("quiver/offered", { names, max_age_s: maxAgeS }, heldSchema)).held;
  }

  /** A Tool class's own answers for one call: read-only, concurrent, destructive (R-tool-class-per-call). */
  callBehaviour(name: string, args: Record<string, unknown>): Promise<CallBehaviour> {
    return this.method("quiver/behaviour", { name, arguments: args }, callBehaviourSchema);
  }

  /**
   * What hooks/tools.py (its text given) decides on one call before it runs. The call carries the text's sha256
   * only; a host that holds no text under it (new, restarted, or the file changed) says so, and the text goes
   * once, with that call, while other calls that found it missing wait for it. A host that still says it is
   * missing has not kept it: the caller refuses the call.
   */
  async hook(source: string, call: HookCall): Promise<HookDecision> {
    if (this.hookHash?.source !== source) this.hookHash = { source, hash: createHash("sha256").update(source, "utf8").digest("hex") };
    const { hash } = this.hookHash;
    const ask = (withText: boolean) => this.method("quiver/hook", withText ? { hash, source, call } : { hash, call }, hookAnswerSchema);
    let answer = await ask(false);
    if ("missing" in answer && this.teaching?.hash === hash) {
      await this.teaching.sent.catch(() => undefined);
      answer = await ask(false);
    }
    if (!("missing" in answer)) return answer;
    const sent = ask(true);
    const teaching = { hash, sent };
    this.teaching = teaching;
    try {
      answer = await sent;
    } finally {
      if (this.teaching === teaching) this.teaching = null;
    }
    if ("missing" in answer) throw new Error("the tool host did not keep the hook's text it was sent");
    return answer;
  }

  /** MCP's tools/list: what any MCP client would be offered. */
  async listTools(): Promise<Tool[]> {
    try {
      return (await this.client.listTools(undefined, { timeout: METHOD_TIMEOUT_MS })).tools;
    } catch (error) {
      throw this.explain(error, "tools/list");
    }
  }

  async call(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallResult> {
    const meta: Record<string, unknown> = { "quiver/settings": options.settings ?? {} };
    if (options.timeoutS !== undefined) meta["quiver/timeout"] = options.timeoutS;
    if (options.session !== undefined) meta["quiver/session"] = options.session;
    if (options.idempotencyKey !== undefined) meta["quiver/idempotency-key"] = options.idempotencyKey;
    const token = options.onProgress ? `quiver-${++this.tokens}` : null;
    if (token) {
      meta.progressToken = token;
      this.progress.set(token, options.onProgress!);
    }
    const reach = options.onStudioRequest ? `quiver-call-${++this.tokens}` : null;
    if (reach) {
      meta["quiver/call"] = reach;
      this.reaching.set(reach, options.onStudioRequest!);
    }
    let raw: CallToolResult;
    try {
      raw = await this.wire.call({ name, arguments: args, _meta: meta }, { watched: !reach, signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const explained = this.explain(error, name);
      if (explained instanceof HostError) throw explained;
      return errorResult(explained.message);
    } finally {
      if (token) this.progress.delete(token);
      if (reach) this.reaching.delete(reach);
    }
    this.events.onCallMeta?.(name, (raw._meta ?? {}) as Record<string, unknown>);
    const extra = callMetaSchema.safeParse(raw._meta ?? {});
    const info = extra.success ? extra.data : {};
    const truncated = info["quiver/truncated"];
    return {
      content: raw.content.map(toContent),
      isError: raw.isError === true,
      outcome: info["quiver/outcome"] ?? (raw.isError ? "failed" : "ok"),
      durationMs: info["quiver/duration_ms"] ?? null,
      truncated: typeof truncated === "string" ? truncated : null,
    };
  }

  /** A host that is gone or silent becomes a HostError; an error the host answered keeps its sentence. */
  private explain(error: unknown, what: string): Error {
    if (this.transport.exit || (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)) {
      return new HostError("stopped", `The tool host stopped while running ${what}`);
    }
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      return new HostError("no_answer", `The tool host did not answer ${what} in time`);
    }
    if (error instanceof ProtocolError) return new Error(error.message);
    if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult) {
      return new Error(`The tool host's answer to ${what} has an unexpected shape (${error.message.slice(0, 300)}); the host and the studio are out of step`);
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
