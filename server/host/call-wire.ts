// tools/call sent straight over the host's transport and its answer matched here, beside the SDK's Client, which
// keeps initialize, the lists and Quiver's other methods. Edit when a call's request or answer changes.
//
// Why not the Client's request(): on a no-op call its bookkeeping (a timer, an abort listener and several promises
// per request, the answer checked as JSON-RPC and then again as a result) cost more CPU than the host spends on the
// call, and a tool call is the one request the studio makes thousands of times a minute. What it did that counts is
// kept: the answer checked against MCP's CallToolResult schema, notifications/cancelled on abort and on the wait's
// end, and the SDK's own errors, so HostClient words every failure as before.
import { ProtocolError, SdkError, SdkErrorCode, specTypeSchemas, type CallToolResult, type JSONRPCMessage } from "@modelcontextprotocol/client";

type Waiting = {
  resolve: (result: CallToolResult) => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
};

export type WireOptions = {
  /** Whether the wire's wait applies: false for a call that may wait on a person for as long as they take. */
  watched: boolean;
  signal?: AbortSignal;
};

type Send = (message: JSONRPCMessage) => Promise<void>;

const resultSchema = specTypeSchemas.CallToolResult;

export class CallWire {
  private readonly waiting = new Map<string, Waiting>();
  /** When each watched call's wait ends, in the order they were sent: with one wait for all, the soonest first. */
  private readonly due = new Map<string, number>();
  /** One timer for every watched call, armed for the soonest and moved on only when it fires. */
  private timer: NodeJS.Timeout | null = null;
  private sent = 0;

  constructor(
    private readonly send: Send,
    private readonly waitMs: number,
  ) {}

  call(params: Record<string, unknown>, options: WireOptions): Promise<CallToolResult> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    // A string never equals the numbers the SDK's Client counts its own requests with.
    const id = `call-${++this.sent}`;
    return new Promise<CallToolResult>((resolve, reject) => {
      const waiting: Waiting = { resolve, reject };
      this.waiting.set(id, waiting);
      if (options.watched) {
        this.due.set(id, performance.now() + this.waitMs);
        this.arm();
      }
      if (signal) {
        waiting.signal = signal;
        waiting.onAbort = () => this.cancel(id, signal.reason);
        signal.addEventListener("abort", waiting.onAbort, { once: true });
      }
      this.send({ jsonrpc: "2.0", id, method: "tools/call", params }).catch((error: unknown) => this.settle(id)?.reject(error));
    });
  }

  /** Takes a line off the wire if it answers one of the calls sent here; false for anything else. */
  take(value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    const { id } = value as { id?: unknown };
    if (typeof id !== "string" || "method" in value || !this.waiting.has(id)) return false;
    const waiting = this.settle(id)!;
    const answer = value as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
    if (answer.error !== undefined) {
      const { code, message, data } = answer.error ?? {};
      waiting.reject(new ProtocolError(typeof code === "number" ? code : -32603, typeof message === "string" ? message : "the tool host answered an error without a message", data));
      return true;
    }
    const checked = resultSchema["~standard"].validate(answer.result);
    if (!checked.issues) {
      waiting.resolve(checked.value as CallToolResult);
      return true;
    }
    const issue = checked.issues[0];
    const where = issue?.path?.length ? issue.path.map((part) => (typeof part === "object" ? String(part.key) : String(part))).join(".") : "result";
    waiting.reject(new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${where}: ${issue?.message ?? "not a result"}`));
    return true;
  }

  /** The host is gone: every call still waiting fails as the Client's requests do. */
  closed(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const id of [...this.waiting.keys()]) this.settle(id)?.reject(new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"));
  }

  private cancel(id: string, reason: unknown): void {
    const waiting = this.settle(id);
    if (!waiting) return;
    this.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: String(reason) } }).catch(() => undefined);
    waiting.reject(reason);
  }

  /** Forget a call (its answer came, or never will) and hand back what waits for it. */
  private settle(id: string): Waiting | undefined {
    const waiting = this.waiting.get(id);
    if (!waiting) return undefined;
    this.waiting.delete(id);
    this.due.delete(id);
    if (waiting.onAbort) waiting.signal!.removeEventListener("abort", waiting.onAbort);
    return waiting;
  }

  private arm(): void {
    if (this.timer) return;
    const soonest = this.due.values().next();
    if (soonest.done) return;
    // Left armed when the calls end (disarming and arming again would be a timer per call): unref'd, as the
    // host's pipes keep the process alive while it runs, and its end fails what still waits.
    this.timer = setTimeout(() => this.expire(), Math.max(0, soonest.value - performance.now())).unref();
  }

  private expire(): void {
    this.timer = null;
    const now = performance.now();
    for (const [id, due] of this.due) {
      if (due > now) break;
      this.cancel(id, new SdkError(SdkErrorCode.RequestTimeout, "Request timed out", { timeout: this.waitMs }));
    }
    this.arm();
  }
}
