// Signing the studio in to an OAuth-protected MCP server (R-mcp-oauth-connect): Connect gives the admin's browser the
// server's consent page, the callback finishes with the code it brings back (R-mcp-oauth-state), and Disconnect
// forgets the grant. The SDK's auth() does the protocol; this says who may, keeps what is under way, and words
// every outcome as a sentence for the row.
import { auth, OAuthClientFlowError, OAuthError, RegistrationRejectedError, SdkError, UnauthorizedError } from "@modelcontextprotocol/client";
import type { Db } from "@/db/client";
import { recordAudit } from "@/server/audit/record";
import { reportUnexpected } from "@/server/error-report";
import { DomainError } from "@/server/errors";
import { makeMasker, type Masker } from "@/server/secrets/mask";
import { referencedNames } from "@/server/secrets/names";
import { resolveSecrets, substitute } from "@/server/secrets/resolve";
import type { HttpTransport } from "./config";
import { networkCause } from "./connection-http";
import { StudioOAuthProvider, type ProviderMode } from "./oauth-provider";
import { boundOf, forgetGrant, newState, readGrant, savePending, takePending, writeGrant } from "./oauth-store";
import type { McpPool } from "./pool";
import { findServer, getServer, type McpServerRow } from "./registry";

export const CALLBACK_PATH = "/api/mcp/oauth/callback";
/** Discovery, registration and the code exchange each get this long before the sign-in says the server is silent. */
const STEP_TIMEOUT_MS = 30_000;

/** Where the server sends the browser back: the studio's public address when set, else the page's own origin. */
export function callbackUrl(baseUrl: string | undefined, headers: Headers): string {
  const origin = baseUrl ? new URL(baseUrl).origin : (headers.get("origin") ?? `http://${headers.get("host") ?? "127.0.0.1"}`);
  return new URL(CALLBACK_PATH, origin).href;
}

const timedFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(STEP_TIMEOUT_MS) });

type Resolved = { row: McpServerRow; transport: HttpTransport & { auth: NonNullable<HttpTransport["auth"]> }; masker: Masker };

/** The row with its secrets resolved for this one step (a secret.used row each), and a masker for its sentences. */
async function resolvedOAuthRow(db: Db, row: McpServerRow, actor: string, key?: Buffer): Promise<Resolved> {
  const t = row.transport;
  if (t.type !== "http" || !t.auth) {
    throw new DomainError("BAD_REQUEST", "MCP_SERVER_NOT_OAUTH", `${row.name} does not sign in with OAuth: turn the sign-in on in Edit first, or send its credential in a header.`);
  }
  const names = referencedNames(t);
  const values = names.size > 0 ? await resolveSecrets(db, names, { actor, via: "mcp-server", tool: row.name }, key) : new Map<string, string>();
  return { row, transport: substitute(t, values) as Resolved["transport"], masker: makeMasker([...values.values()]) };
}

/** Why a sign-in step failed, in the row's terms (its URL as written), masked. */
function stepFailure(error: unknown, row: McpServerRow, mask: Masker): string {
  const shown = (row.transport as HttpTransport).url;
  const network = networkCause(error);
  if (network) return `Nothing answers the sign-in at ${shown} (${network}).`;
  if (error instanceof DOMException && error.name === "TimeoutError") return `The sign-in server of ${shown} did not answer within ${STEP_TIMEOUT_MS / 1000} s.`;
  if (error instanceof RegistrationRejectedError) {
    return mask(`The sign-in server of ${row.name} would not let the studio register itself (it answered ${error.status}): in Edit, give the client id its developer settings show, and its secret if it has one.`);
  }
  if (error instanceof OAuthError) return mask(`The sign-in server of ${row.name} refused: ${error.code}${error.message && error.message !== error.code ? ` (${error.message.slice(0, 200)})` : ""}.`);
  // The SDK's own errors speak of the sign-in; anything else (the database, a bug) is told by its id only.
  if (error instanceof SdkError || error instanceof OAuthClientFlowError || error instanceof UnauthorizedError) {
    return mask(`Signing in to ${row.name} did not work: ${error.message.replace(/[.\s]+$/, "").slice(0, 300)}.`);
  }
  return reportUnexpected(error, `MCP sign-in to ${row.name}`).sentence;
}

/**
 * Connect: the address of the server's consent page for the admin's browser. The PKCE verifier and the state stay
 * here, bound to `actor` for a few minutes; the state is in the address only.
 */
export async function startConnect(db: Db, input: { id: string; actor: string; redirectUrl: string; key?: Buffer }): Promise<{ url: string }> {
  const { row, transport, masker } = await resolvedOAuthRow(db, await getServer(db, input.id), input.actor, input.key);
  const state = newState();
  const mode: ProviderMode = { kind: "connect", redirectUrl: input.redirectUrl, state };
  const provider = new StudioOAuthProvider({ db, row, clientSecret: transport.auth.clientSecret, grant: await readGrant(db, row, input.key), mode, onValues: () => undefined, key: input.key });
  const scope = transport.auth.scopes.join(" ") || undefined;
  try {
    await auth(provider, { serverUrl: transport.url, scope, forceReauthorization: true, fetchFn: timedFetch });
  } catch (error) {
    throw new DomainError("PRECONDITION_FAILED", "MCP_SIGN_IN_FAILED", stepFailure(error, row, masker));
  }
  const url = provider.authorizationUrl;
  // The page sends the browser there: only a web address, never a script or another scheme a server might name.
  if (!url || !provider.verifier || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new DomainError("PRECONDITION_FAILED", "MCP_SIGN_IN_FAILED", `The sign-in server of ${row.name} gave no web address to sign in at, so the studio cannot send you there.`);
  }
  await savePending(db, state, { serverId: row.id, userId: input.actor, verifier: provider.verifier, discovery: provider.discovery, redirectUrl: input.redirectUrl, bound: boundOf(row) }, input.key);
  await recordAudit(db, { actor: input.actor, action: "mcp_server.sign_in_started", target: row.name, detail: { id: row.id } });
  return { url: url.href };
}

export type CallbackQuery = { state: string | null; code: string | null; error: string | null; errorDescription: string | null; iss: string | null };

/** The callback's answer: the row it was for (null when the state named none) and the sentence to show. */
export type CallbackOutcome = { serverId: string | null; ok: boolean; sentence: string };

const AGAIN = "press Connect on the server's row in Settings → MCP servers to sign in again";
const refused = (sentence: string): CallbackOutcome => ({ serverId: null, ok: false, sentence });

/**
 * The callback: the state must name a Connect under way, made by this same admin, unused and unexpired; it is used up
 * whatever follows. A good code becomes the grant, and the server's connection is opened afresh with it.
 */
export async function finishConnect(
  db: Db,
  query: CallbackQuery,
  who: { id: string; name: string; admin: boolean } | null,
  pool: McpPool,
  key?: Buffer,
): Promise<CallbackOutcome> {
  if (!query.state) return refused(`This address carries no sign-in state, so the studio cannot tell which sign-in it finishes: ${AGAIN}.`);
  const pending = await takePending(db, query.state, key);
  if (pending === null) return refused(`This sign-in is not one the studio started, or it was already used: ${AGAIN}.`);
  if (pending === "expired") return refused(`This sign-in waited more than 10 minutes and expired: ${AGAIN}.`);
  if (!who || who.id !== pending.userId || !who.admin) {
    return refused(`This sign-in was started by another account: the admin who pressed Connect must finish it, in the browser where they are signed in to the studio.`);
  }
  const row = await findServer(db, pending.serverId);
  if (!row) return refused("The MCP server this sign-in was for has been deleted meanwhile.");
  const say = async (ok: boolean, sentence: string): Promise<CallbackOutcome> => {
    await writeGrant(db, row, { outcome: { sentence, ok } }, key);
    return { serverId: row.id, ok, sentence };
  };
  if (boundOf(row) !== pending.bound) return say(false, `The server's URL or client id changed while you were signing in: ${AGAIN}.`);
  if (query.error) {
    const detail = query.errorDescription ? ` (${query.errorDescription.slice(0, 200)})` : "";
    return say(false, `The sign-in to ${row.name} was not completed: its server answered ${query.error.slice(0, 60)}${detail}; ${AGAIN}.`);
  }
  if (!query.code) return say(false, `The server sent the browser back without a code, so nothing was signed in: ${AGAIN}.`);
  const { transport, masker } = await resolvedOAuthRow(db, row, who.id, key);
  const mode: ProviderMode = { kind: "callback", redirectUrl: pending.redirectUrl, verifier: pending.verifier, discovery: pending.discovery, signedInBy: who.id };
  const provider = new StudioOAuthProvider({ db, row, clientSecret: transport.auth.clientSecret, grant: await readGrant(db, row, key), mode, onValues: () => undefined, key });
  try {
    await auth(provider, { serverUrl: transport.url, authorizationCode: query.code, iss: query.iss ?? undefined, fetchFn: timedFetch });
  } catch (error) {
    return say(false, `${stepFailure(error, row, masker).replace(/\.$/, "")}; ${AGAIN}.`);
  }
  await recordAudit(db, { actor: who.id, action: "mcp_server.signed_in", target: row.name, detail: { id: row.id } });
  await pool.forget(row.id);
  const test = await pool.testConnection(db, row.id);
  return say(test.ok, `Signed in by ${who.name}. ${test.sentence}`);
}

/** Disconnect: the grant and any Connect under way are forgotten, and the server's session closed. */
export async function disconnect(db: Db, input: { id: string; actor: string }, pool: McpPool): Promise<void> {
  const row = await getServer(db, input.id);
  await forgetGrant(db, row.id);
  await pool.forget(row.id);
  await recordAudit(db, { actor: input.actor, action: "mcp_server.signed_out", target: row.name, detail: { id: row.id } });
}
