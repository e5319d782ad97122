// One open MCP session to one server, whatever carries it (a process's stdio, Streamable HTTP, HTTP+SSE): what
// connection.ts holds while the server is up, and the pieces every transport shares.
import type { Client, JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import type { Progress } from "@/server/host/protocol";

export type TransportKind = "stdio" | "streamable-http" | "sse";

export const TRANSPORT_LABEL: Record<TransportKind, string> = {
  stdio: "stdio",
  "streamable-http": "Streamable HTTP",
  sse: "HTTP+SSE (the older transport; the server does not speak Streamable HTTP)",
};

export type LinkEvents = {
  /** The session ended: `expected` when close() asked for it. */
  onClose: (expected: boolean) => void;
  onToolsChanged: () => void;
};

export type Link = {
  readonly client: Client;
  readonly kind: TransportKind;
  /** The server's process (bubblewrap's, sandboxed); null over HTTP. */
  readonly pid: number | null;
  /** Whether a stdio server runs in bubblewrap; null over HTTP. */
  readonly sandboxed: boolean | null;
  /** Why it is not sandboxed or not limited, as a sentence; null when it is both (or over HTTP). */
  readonly confinement: string | null;
  /** Progress listeners by the token sent in a call's `_meta`. */
  readonly progress: Map<string, (progress: Progress) => void>;
  /** The last lines the server wrote to stderr, unmasked (stdio; "" over HTTP). */
  stderrTail(): string;
  /** How the process ended ("exit code 1", "exit code 137, signal SIGKILL"); null while it runs or over HTTP. */
  exited(): string | null;
  close(): Promise<void>;
};

/** Start of a server failed: the sentence says why, in the terms of its row (command, URL), masked by the caller. */
export class StartFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartFailure";
  }
}

export const CLIENT_INFO = { name: "quiver", version: "0.1.0" };

/**
 * Takes progress notifications off the wire in arrival order, before the SDK's Client sees them: the Client defers
 * notifications to a microtask but handles a response at once, so lines sent just before a result would find their
 * call finished and be dropped (the same reason server/host/client.ts reads the host's progress this way).
 * Called after connect(), which sets the transport's onmessage.
 */
export function tapProgress(transport: Transport, listeners: Map<string, (progress: Progress) => void>): void {
  const inner = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
    if ("method" in message && !("id" in message) && message.method === "notifications/progress") {
      const params = (message.params ?? {}) as { progressToken?: unknown; progress?: unknown; total?: unknown; message?: unknown };
      const listener = listeners.get(String(params.progressToken));
      if (listener) {
        listener({
          progress: typeof params.progress === "number" ? params.progress : 0,
          total: typeof params.total === "number" ? params.total : undefined,
          message: typeof params.message === "string" ? params.message : undefined,
        });
        return;
      }
    }
    (inner as ((m: JSONRPCMessage, e?: unknown) => void) | undefined)?.call(transport, message, extra);
  };
}

/** The last non-empty line of a text, cut to a length a sentence can carry. */
export function lastLine(text: string, max = 300): string {
  const line = text.trim().split("\n").map((l) => l.trim()).filter(Boolean).at(-1) ?? "";
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
