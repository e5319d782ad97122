// The studio's side of the official SDK's OAuth client (R-mcp-oauth-connect): the SDK's auth() does discovery, dynamic
// registration, PKCE, the code exchange and refresh; this provider only keeps what it hands over, sealed in the
// database (oauth-store.ts). Three moments use it: Connect (the admin is about to be sent to consent), the callback
// (the admin came back with a code), and a session (an open connection whose tokens the SDK refreshes). In a session
// nobody can consent, so where the SDK would send someone to sign in, it is answered NeedsSignIn instead.
import { randomBytes } from "node:crypto";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { Db } from "@/db/client";
import { grantValues } from "@/server/secrets/grants";
import { StartFailure } from "./connection-link";
import type { OAuthSettings } from "./oauth-config";
import { readGrant, writeGrant, type Grant } from "./oauth-store";
import type { McpServerRow } from "./registry";

/** The server wants an admin to sign in (again): the sentence says so and where (R-mcp-oauth-needs-sign-in). */
export class NeedsSignIn extends StartFailure {
  constructor(message: string) {
    super(message);
    this.name = "NeedsSignIn";
  }
}

const WHERE = "press Connect on its row in Settings → MCP servers";

export const neverSignedIn = (server: string) => new NeedsSignIn(`Nobody has signed in to ${server} yet: an admin must ${WHERE}.`);
export const signInExpired = (server: string) =>
  new NeedsSignIn(`The sign-in to ${server} expired and the server would not renew it: an admin must ${WHERE} to sign in again.`);

export type ProviderMode =
  | { kind: "connect"; redirectUrl: string; state: string }
  | { kind: "callback"; redirectUrl: string; verifier: string; discovery: OAuthDiscoveryState | null; signedInBy: string }
  | { kind: "session" };

export type ProviderContext = {
  db: Db;
  row: McpServerRow;
  /** The row's client secret, resolved; null when it gives none. */
  clientSecret: string | null;
  grant: Grant | null;
  mode: ProviderMode;
  /** Told every token and client secret the provider reads or is given, so the caller's masker hides them. */
  onValues: (values: string[]) => void;
  key?: Buffer;
};

/** A renewal that never ends (the SDK threw past the provider) holds the next one back no longer than this. */
const RENEWAL_WAIT_MS = 30_000;

/** Where no browser will ever be sent (a session): only the SDK's own checks read it. */
const SESSION_REDIRECT = "http://127.0.0.1/api/mcp/oauth/callback";

/** The redirect addresses a registered client was registered with (a full registration lists them). */
const registeredRedirects = (client: StoredOAuthClientInformation | null): string[] => {
  const uris = (client as { redirect_uris?: unknown } | null)?.redirect_uris;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === "string") : [];
};

export class StudioOAuthProvider implements OAuthClientProvider {
  /** What Connect learnt on its way to the consent page, for the record of the Connect under way. */
  authorizationUrl: URL | null = null;
  verifier: string | null = null;
  discovery: OAuthDiscoveryState | null;
  private client: StoredOAuthClientInformation | null;
  private stored: StoredOAuthTokens | null;
  private readonly settings: OAuthSettings;
  /** Someone had signed in: a session that cannot go on says the sign-in expired, not that there never was one. */
  private readonly hadTokens: boolean;
  /** The refresh token of the renewal under way, and its end: one renewal at a time (see tokens()). */
  private renewingFrom: string | null = null;
  private renewal: { done: Promise<void>; end: () => void } | null = null;

  constructor(private readonly c: ProviderContext) {
    const oauth = c.row.transport.type === "http" ? c.row.transport.auth : undefined;
    if (!oauth) throw new Error(`${c.row.name} does not sign in with OAuth`);
    this.settings = oauth;
    this.hadTokens = Boolean(c.grant?.tokens);
    this.discovery = c.mode.kind === "callback" ? c.mode.discovery : (c.grant?.discovery ?? null);
    this.client = c.grant?.client ?? null;
    this.stored = c.grant?.tokens ?? null;
    c.onValues([...grantValues(this.stored), ...grantValues(this.client), ...(c.clientSecret ? [c.clientSecret] : [])]);
  }

  get redirectUrl(): string {
    return this.c.mode.kind === "session" ? (registeredRedirects(this.client)[0] ?? SESSION_REDIRECT) : this.c.mode.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.settings.scopes.join(" ");
    return {
      client_name: "Quiver",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(scope ? { scope } : {}),
    };
  }

  state(): string {
    return this.c.mode.kind === "connect" ? this.c.mode.state : randomBytes(32).toString("base64url");
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    const given = this.settings.clientId;
    if (given) return { client_id: given, ...(this.c.clientSecret ? { client_secret: this.c.clientSecret } : {}) };
    // A client registered for another address of the studio would be sent back elsewhere: register again.
    if (this.c.mode.kind === "connect" && this.client && !registeredRedirects(this.client).includes(this.redirectUrl)) return undefined;
    return this.client ?? undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    // A given client id is the row's; the SDK's issuer stamp on it need not be kept.
    if (this.settings.clientId) return;
    // Registering needs an admin at hand: a session that lost its client waits for the next Connect.
    if (this.c.mode.kind === "session" && !this.client) throw signInExpired(this.c.row.name);
    this.client = info;
    this.c.onValues(grantValues(info));
    await writeGrant(this.c.db, this.c.row, { client: info }, this.c.key);
  }

  /**
   * With `ctx`, the SDK's renewal is about to read the tokens: calls side by side that all met an expired token
   * renew one after another, each with the newest refresh token, since a server that rotates them refuses an old
   * one (and a refusal would read as the grant's end). Without `ctx`, a request's bearer read: never waits.
   */
  async tokens(ctx?: unknown): Promise<StoredOAuthTokens | undefined> {
    if (ctx !== undefined && this.renewal) await Promise.race([this.renewal.done, new Promise((resolve) => setTimeout(resolve, RENEWAL_WAIT_MS).unref())]);
    return this.stored ?? undefined;
  }

  private endRenewal() {
    this.renewal?.end();
    this.renewal = null;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.endRenewal();
    const renewed = this.stored !== null && this.stored.access_token !== tokens.access_token;
    this.stored = tokens;
    this.c.onValues(grantValues(tokens));
    const mode = this.c.mode;
    if (mode.kind === "callback") await writeGrant(this.c.db, this.c.row, { tokens, signedInBy: mode.signedInBy }, this.c.key);
    else await writeGrant(this.c.db, this.c.row, { tokens, refreshed: renewed }, this.c.key);
  }

  /** Connect keeps the address for the browser; anywhere else nobody is there to consent. */
  redirectToAuthorization(url: URL): void {
    this.endRenewal();
    if (this.c.mode.kind === "connect") {
      this.authorizationUrl = url;
      return;
    }
    // Tokens the server did not refuse are still good: the renewal failed on the way (its server down, an error page).
    if (this.stored) throw new StartFailure(`The sign-in to ${this.c.row.name} could not be renewed just now (its sign-in server did not answer as it should); the studio tries again when the server is next needed.`);
    throw this.hadTokens ? signInExpired(this.c.row.name) : neverSignedIn(this.c.row.name);
  }

  saveCodeVerifier(verifier: string): void {
    if (this.c.mode.kind === "connect") this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.c.mode.kind !== "callback") throw new Error("There is no sign-in under way to finish.");
    return this.c.mode.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.discovery = state;
    if (this.c.mode.kind !== "connect") await writeGrant(this.c.db, this.c.row, { discovery: state }, this.c.key);
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery ?? undefined;
  }

  /** Called by the SDK just before it renews `tokens`: which refresh token a refusal that follows is about. */
  scopeForRefresh(tokens: StoredOAuthTokens): undefined {
    this.renewingFrom = tokens.refresh_token ?? null;
    let end = () => {};
    const done = new Promise<void>((resolve) => (end = resolve));
    this.renewal = { done, end };
    return undefined;
  }

  /**
   * A refused renewal with tokens that were replaced meanwhile (another studio process renewed first, and the
   * server rotated the refresh token) is not the end of the grant: the newest tokens are taken up instead, and the
   * SDK renews with them.
   */
  private async supersededMeanwhile(): Promise<boolean> {
    if (this.c.mode.kind !== "session" || this.renewingFrom === null) return false;
    if (this.stored && this.stored.refresh_token !== this.renewingFrom) return true;
    const latest = (await readGrant(this.c.db, this.c.row, this.c.key))?.tokens;
    if (!latest || latest.refresh_token === this.renewingFrom) return false;
    this.stored = latest;
    this.c.onValues(grantValues(latest));
    return true;
  }

  /** The SDK says a credential is no longer good (a refused refresh, an unknown client): forget it. */
  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier") return;
    this.endRenewal();
    if (scope === "tokens" && (await this.supersededMeanwhile())) return;
    const forgetTokens = (scope === "all" || scope === "tokens") && this.stored !== null;
    const forgetClient = (scope === "all" || scope === "client") && this.client !== null && !this.settings.clientId;
    const forgetDiscovery = scope === "all" || scope === "discovery";
    if (forgetDiscovery) this.discovery = null;
    if (forgetClient) this.client = null;
    // In a session the grant is gone for good; at a callback the tokens being replaced were the old sign-in's.
    const expired = forgetTokens && this.c.mode.kind === "session";
    if (forgetTokens) this.stored = null;
    await writeGrant(
      this.c.db,
      this.c.row,
      {
        ...(forgetTokens ? { tokens: null } : {}),
        ...(forgetClient ? { client: null } : {}),
        ...(forgetDiscovery ? { discovery: null } : {}),
        ...(expired ? { outcome: { sentence: signInExpired(this.c.row.name).message, ok: false } } : {}),
      },
      this.c.key,
    );
  }
}

/** What an OAuth row's session needs to sign its requests: everything but the grant, which is read as it opens. */
export type SessionSignIn = Omit<ProviderContext, "grant" | "mode">;

/** The provider an opening session signs its requests with; nobody signed in is NeedsSignIn before any request. */
export async function sessionProvider(signIn: SessionSignIn): Promise<StudioOAuthProvider> {
  const grant = await readGrant(signIn.db, signIn.row, signIn.key);
  if (!grant?.tokens) throw grant?.outcome && !grant.outcome.ok ? new NeedsSignIn(grant.outcome.sentence) : neverSignedIn(signIn.row.name);
  return new StudioOAuthProvider({ ...signIn, grant, mode: { kind: "session" } });
}
