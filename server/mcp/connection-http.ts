// Opening an HTTP MCP server's session: Streamable HTTP first, and when the server answers that with a 4xx as a
// server of the older HTTP+SSE transport does, that transport instead, as the specification's backwards
// compatibility section and the SDK's own clients do (R-mcp-http-fallback). The row's headers (resolved) go on
// every request, and a row that signs in with OAuth adds the sign-in's token, which the SDK renews when the server
// refuses it (R-mcp-oauth-tokens). What the server answered is watched, so a URL that is not MCP says what it sent.
import {
  Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
  type Transport,
} from "@modelcontextprotocol/client";
import { CLIENT_INFO, StartFailure, tapProgress, type Link, type LinkEvents, type TransportKind } from "./connection-link";
import { NeedsSignIn, sessionProvider, type SessionSignIn } from "./oauth-provider";

export type HttpOptions = { connectTimeoutMs: number };

/** The last answer that was not MCP's: a failed status, or a body of another kind than JSON or an event stream. */
type Seen = { status: number; type: string; sample: string } | null;

/** fetch, noting the answers the SDK's errors say too little about. */
function watchingFetch(seen: { last: Seen }): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const mcpBody = type === "application/json" || type === "text/event-stream" || response.status === 202;
    if (!response.ok || !mcpBody) {
      const sample = await response.clone().text().then((text) => text.replace(/\s+/g, " ").trim().slice(0, 120), () => "");
      seen.last = { status: response.status, type: type || "no content type", sample };
    }
    return response;
  };
}

/** A 4xx to the initialize POST other than a sign-in: what a server of the older transport answers. */
function olderTransport(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403;
}

export function networkCause(error: unknown): string | null {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ECONNREFUSED") return "connection refused";
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the host name does not resolve";
    if (code === "ECONNRESET") return "the connection was reset";
    if (code && /^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/.test(code)) return "the connection timed out";
    if (code && /CERT|SSL|TLS/.test(code)) return `its certificate was refused (${code})`;
  }
  return null;
}

/** Why the session did not open, in terms of the row's URL (`shown`, unresolved). */
function failureSentence(error: unknown, seen: Seen, shown: string, timeoutMs: number): string {
  const network = networkCause(error);
  if (network) return `Nothing answers at ${shown} (${network}).`;
  if (error instanceof UnauthorizedError || (error instanceof SdkHttpError && error.status === 401)) {
    return `The server at ${shown} answered 401: it wants a sign-in, or the credential it expects in a header.`;
  }
  if (error instanceof SdkHttpError && error.status === 403) return `The server at ${shown} answered 403: the credential it was sent is refused.`;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return `The server at ${shown} did not answer initialize within ${Math.round(timeoutMs / 1000)} s.`;
  if (seen && seen.status >= 200 && seen.status < 300) {
    return `The URL answered ${seen.status} but not MCP: it sent ${seen.type}${seen.sample ? ` (“${seen.sample}”)` : ""}.`;
  }
  if (seen) return `The URL answered ${seen.status}${seen.sample ? ` (“${seen.sample}”)` : ""}; it is not an MCP endpoint, or not this one.`;
  const message = error instanceof Error ? error.message : String(error);
  // No response was seen at all, so nothing answered, whatever the SDK's wrapping left of the cause.
  return `Nothing answered at ${shown} (${message.slice(0, 200)}).`;
}

/**
 * The SDK sends a transport's own headers to the sign-in server too: with a sign-in, the row's headers are added
 * here instead, only to requests for the MCP server's own origin.
 */
function withRowHeaders(inner: typeof fetch, url: URL, headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (target.origin !== url.origin) return inner(input, init);
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    return inner(input, { ...init, headers: merged });
  };
}

async function attempt(kind: TransportKind, url: URL, headers: Record<string, string>, seen: { last: Seen }, timeoutMs: number, authProvider?: OAuthClientProvider) {
  const options = authProvider
    ? { fetch: withRowHeaders(watchingFetch(seen), url, headers), authProvider }
    : { requestInit: { headers }, fetch: watchingFetch(seen) };
  const transport: Transport = kind === "sse" ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options);
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  client.onerror = () => {}; // a dropped event stream: the request that suffers answers for it
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return { client, transport };
}

/** A sign-in's failure stays as it is; a 401 despite the sign-in's token means the sign-in itself is refused. */
function signInFailure(error: unknown, shown: string, signIn: SessionSignIn | undefined): StartFailure | null {
  if (error instanceof StartFailure) return error;
  if (!signIn || !(error instanceof UnauthorizedError || (error instanceof SdkHttpError && error.status === 401))) return null;
  return new NeedsSignIn(`The server at ${shown} refused the studio's sign-in: an admin must press Connect on its row in Settings → MCP servers to sign in again.`);
}

/**
 * Open a session with the server at `url` (resolved) sending `headers` (resolved); `shown` is the URL as its row
 * writes it, for sentences. `signIn` is there when the row signs in with OAuth.
 */
export async function openHttp(url: string, headers: Record<string, string>, shown: string, options: HttpOptions, events: LinkEvents, signIn?: SessionSignIn): Promise<Link> {
  const seen = { last: null as Seen };
  const endpoint = new URL(url);
  const authProvider = signIn ? await sessionProvider(signIn) : undefined;
  let opened: Awaited<ReturnType<typeof attempt>>;
  let kind: TransportKind = "streamable-http";
  try {
    opened = await attempt(kind, endpoint, headers, seen, options.connectTimeoutMs, authProvider);
  } catch (first) {
    const refused = signInFailure(first, shown, signIn);
    if (refused) throw refused;
    if (!olderTransport(first)) throw new StartFailure(failureSentence(first, seen.last, shown, options.connectTimeoutMs));
    const firstSeen = seen.last;
    seen.last = null;
    kind = "sse";
    try {
      opened = await attempt(kind, endpoint, headers, seen, options.connectTimeoutMs, authProvider);
    } catch (second) {
      const refusedToo = signInFailure(second, shown, signIn);
      if (refusedToo) throw refusedToo;
      const status = (first as SdkHttpError).status;
      throw new StartFailure(
        `The URL answered ${status} to Streamable HTTP, and the older HTTP+SSE transport did not open either: ${failureSentence(second, seen.last ?? firstSeen, shown, options.connectTimeoutMs)}`,
      );
    }
  }
  const { client, transport } = opened;
  let closing = false;
  const progress = new Map();
  tapProgress(transport, progress);
  client.setNotificationHandler("notifications/tools/list_changed", () => events.onToolsChanged());
  client.onclose = () => events.onClose(closing);
  return {
    client,
    kind,
    pid: null,
    sandboxed: null,
    confinement: null,
    progress,
    stderrTail: () => "",
    exited: () => null,
    close: async () => {
      closing = true;
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** A request refused because the server no longer knows the session: open a new one and send it again. */
export function sessionGone(error: unknown): boolean {
  if (!(error instanceof SdkHttpError)) return false;
  if (error.status === 404) return true;
  // The reference servers (express, SDK 1.x) answer an unknown session id with 400 "No valid session ID provided".
  const text = typeof error.data?.text === "string" ? error.data.text : error.message;
  return error.status === 400 && /session/i.test(text);
}
