// The stdio pipe to one tool host process, as an MCP SDK transport: spawned with exactly the environment given,
// the tail of its stderr kept for error messages, and how it ended (exit code, signal) recorded.
import { spawn, type ChildProcess } from "node:child_process";
import { constants } from "node:os";
import { parseJSONRPCMessage, serializeMessage, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import type { SpawnSpec } from "./command";

// Why not the SDK's StdioClientTransport: it merges its own default variables (HOME, USER, SHELL, TERM...) into
// the env it is given, forgets the exit status that the "host stopped" message reports, and offers no place to
// take progress off the wire before the SDK's Client sees it (see `intercept`, and client.ts for why).

export type HostExit = { code: number | null; signal: NodeJS.Signals | null };

const STDERR_LINES = 200;
/** One message longer than this cannot be split from the stream any more, so the host must go. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const NEWLINE = 0x0a;

/** "exit code 137, signal SIGKILL": the shell's code for a signal, and the signal a 128+N code stands for. */
export function describeExit({ code, signal }: HostExit): string {
  const signals = constants.signals as Record<string, number>;
  const number = signal ? signals[signal] : undefined;
  const shownCode = code ?? (number !== undefined ? 128 + number : null);
  const shownSignal = signal ?? (code !== null && code > 128 ? Object.keys(signals).find((name) => signals[name] === code - 128) : undefined);
  const parts = [shownCode !== null ? `exit code ${shownCode}` : null, shownSignal ? `signal ${shownSignal}` : null];
  return parts.filter(Boolean).join(", ") || "no exit status";
}

export class HostTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /**
   * Sees each line's JSON first, before it is checked as JSON-RPC: the answers to the calls sent past the SDK's
   * Client (call-wire.ts), which checks its own. A value it claims (returns true) goes no further.
   */
  claim?: (value: unknown) => boolean;
  /** Sees each message next, in arrival order; a message it claims (returns true) goes no further. */
  intercept?: (message: JSONRPCMessage) => boolean;
  /** The process's pipes closed: called before onclose, which the SDK's Client takes for itself. */
  onended?: () => void;

  /** How the process ended; null while it runs. */
  exit: HostExit | null = null;
  private child?: ChildProcess;
  /** The start of a line not yet ended, as it came: joined once when its end arrives, not on every chunk. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private readonly stderrLines: string[] = [];
  private stderrPartial = "";
  private closing = false;

  constructor(private readonly spec: SpawnSpec) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Whether close() was asked for (an exit after it is not a crash). */
  get closedByUs(): boolean {
    return this.closing;
  }

  /** The last lines the host wrote to stderr. */
  stderrTail(lines = STDERR_LINES): string {
    const all = this.stderrPartial ? [...this.stderrLines, this.stderrPartial] : this.stderrLines;
    return all.slice(-lines).join("\n");
  }

  start(): Promise<void> {
    if (this.child) throw new Error("HostTransport already started");
    const { command, args, cwd, env } = this.spec;
    // The cast: Next's types make NODE_ENV required in ProcessEnv, and the host gets no NODE_ENV.
    const child = spawn(command, args, { cwd, env: env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    this.child = child;
    child.stdout!.on("data", (chunk: Buffer) => this.readStdout(chunk));
    child.stderr!.on("data", (chunk: Buffer) => this.readStderr(chunk));
    child.stdin!.on("error", (error) => this.onerror?.(error));
    child.on("exit", (code, signal) => {
      this.exit = { code, signal };
    });
    child.on("close", (code, signal) => {
      this.exit ??= { code, signal };
      this.onended?.();
      this.onclose?.();
    });
    return new Promise((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (error) => {
        this.exit ??= { code: null, signal: null };
        reject(error);
        this.onerror?.(error);
      });
    });
  }

  private readStdout(chunk: Buffer) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      let line = chunk.subarray(start, end);
      if (this.partialBytes > 0) {
        line = Buffer.concat([...this.partial, line], this.partialBytes + line.length);
        this.partial = [];
        this.partialBytes = 0;
      }
      start = end + 1;
      this.readLine(line);
    }
    if (start === chunk.length) return;
    this.partialBytes += chunk.length - start;
    if (this.partialBytes > MAX_MESSAGE_BYTES) {
      this.partial = [];
      this.partialBytes = 0;
      this.onerror?.(new Error(`The tool host wrote a message over ${MAX_MESSAGE_BYTES} bytes`));
      this.kill();
      return;
    }
    this.partial.push(start === 0 ? chunk : chunk.subarray(start));
  }

  private readLine(line: Buffer) {
    let value: unknown;
    try {
      value = JSON.parse(line.toString("utf8"));
    } catch {
      return; // not JSON (a stray line on stdout): skipped, as the SDK's own reader does
    }
    if (this.claim?.(value)) return;
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    if (!this.intercept?.(message)) this.onmessage?.(message);
  }

  private readStderr(chunk: Buffer) {
    const lines = (this.stderrPartial + chunk.toString("utf8")).split("\n");
    this.stderrPartial = lines.pop() ?? "";
    this.stderrLines.push(...lines);
    if (this.stderrLines.length > STDERR_LINES) this.stderrLines.splice(0, this.stderrLines.length - STDERR_LINES);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exit) return Promise.reject(new Error("The tool host is not running"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", () => resolve());
    });
  }

  /** Send a signal to the host process (the test of a host killed mid-call, a wedged host). */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    if (this.child && !this.exit) this.child.kill(signal);
  }

  /** End stdin so the host exits on its own; SIGTERM after 2 s, SIGKILL after 2 s more. */
  async close(): Promise<void> {
    const child = this.child;
    this.closing = true;
    if (!child || this.exit) return;
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const within = (ms: number) => Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
    child.stdin?.end();
    if (await within(2000)) return;
    child.kill("SIGTERM");
    if (await within(2000)) return;
    child.kill("SIGKILL");
    await within(2000);
  }
}
